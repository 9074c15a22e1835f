import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';

/**
 * The little the shell's component tests need from a DOM testing library, on react-dom alone (the shell
 * declares no testing library): mount, click, choose files, and wait for what React renders next.
 */

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export interface Mounted {
  rerender: (ui: ReactNode) => Promise<void>;
  unmount: () => void;
}

export async function mount(ui: ReactNode): Promise<Mounted> {
  const container = document.body.appendChild(document.createElement('div'));
  const root: Root = createRoot(container);
  await act(async () => root.render(ui));
  return {
    rerender: (next) => act(async () => root.render(next)),
    unmount: () => {
      act(() => root.unmount());
      container.remove();
    },
  };
}

/** Retries `check` until it stops throwing, letting React render in between. */
export async function waitFor<T>(check: () => T, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return check();
    } catch (error) {
      if (Date.now() > until) throw error;
      await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    }
  }
}

/** The button whose text (or accessible label) matches, within `scope`. */
export function button(name: string | RegExp, scope: ParentNode = document): HTMLButtonElement {
  const matches = (text: string) => (typeof name === 'string' ? text.trim() === name : name.test(text));
  const found = Array.from(scope.querySelectorAll('button')).find((b) => matches(b.textContent ?? '') || matches(b.getAttribute('aria-label') ?? ''));
  if (!found) throw new Error(`no button ${String(name)}`);
  return found;
}

export async function click(element: Element): Promise<void> {
  await act(async () => {
    element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
  });
}

/** Chooses files in a file input as a user would. */
export async function chooseFiles(input: HTMLInputElement, files: File[]): Promise<void> {
  Object.defineProperty(input, 'files', { value: files, configurable: true });
  await act(async () => {
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

/** The element with exactly this text. */
export function textOf(text: string, scope: ParentNode = document): Element | null {
  return Array.from(scope.querySelectorAll('*')).find((e) => e.children.length === 0 && e.textContent?.trim() === text) ?? null;
}
