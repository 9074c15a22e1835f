/**
 * What the signed-out pages (their own small entry, shell/src/signin) and the console hand each other
 * through the browser's storage. No store, no HTTP client: the signed-out entry imports this module
 * alone (`shared-auth/handoff`) to stay small, and the console's session reads the same keys.
 */

/** Local-storage key of the session token (specification §9). */
export const TOKEN_KEY = 'vdfptAppToken';

/** Where to go after signing in, remembered by the guard when it sends a user to the login page. */
const REDIRECT_KEY = 'cellwiseRedirectAfterLogin';

export function rememberRedirect(path: string): void {
  try {
    sessionStorage.setItem(REDIRECT_KEY, path);
  } catch {
    /* storage unavailable: the user lands on /home instead */
  }
}

export function takeRedirect(): string {
  try {
    const path = sessionStorage.getItem(REDIRECT_KEY);
    sessionStorage.removeItem(REDIRECT_KEY);
    return path && path.startsWith('/') && !path.startsWith('/auth') ? path : '/home';
  } catch {
    return '/home';
  }
}

/** Stores a token the server issued where the console's session store reads it on start. */
export function storeToken(token: string): void {
  globalThis.localStorage?.setItem(TOKEN_KEY, token);
}

/**
 * The message a refusal's body carries (specification §8): its text, or its `message`, else the
 * generic one. Both HTTP clients (the console's XMLHttpRequest client, the signed-out pages' fetch) read bodies this way.
 */
export function bodyMessage(data: unknown): string {
  if (typeof data === 'string' && data.trim() !== '') return data;
  if (data && typeof data === 'object' && 'message' in data && typeof data.message === 'string') return data.message;
  return 'Something went wrong!';
}

/** The signed-out pages: every way to them is a full page load, since the console bundle does not render them. */
export const LOGIN_PATH = '/auth/login';
