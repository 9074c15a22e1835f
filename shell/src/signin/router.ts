import { useSyncExternalStore, type MouseEvent } from 'react';

/**
 * The few lines of routing five pages need (react-router would be a third of this entry): moves
 * between the signed-out pages are history pushes; anything else is a full page load.
 */
const CHANGE = 'cw-signin-navigate';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(CHANGE, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(CHANGE, onChange);
  };
}

/** The page's path, lower case and without a trailing slash (the console's router matched the same way). */
export function currentPath(): string {
  return window.location.pathname.replace(/\/+$/, '').toLowerCase() || '/';
}

export function usePath(): string {
  return useSyncExternalStore(subscribe, currentPath);
}

/** The history entry's state (the recover page leaves the address it sent the link to). */
export function historyState<T>(): Partial<T> {
  const state: unknown = window.history.state;
  return state && typeof state === 'object' ? (state as Partial<T>) : {};
}

export function navigate(path: string, state: object | null = null): void {
  window.history.pushState(state, '', path);
  window.dispatchEvent(new Event(CHANGE));
}

/** A plain click on a link to another signed-out page stays in this page; modified clicks (new tab) are the browser's. */
export function followInApp(event: MouseEvent<HTMLAnchorElement>): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(event.currentTarget.getAttribute('href') ?? '/auth/login');
}
