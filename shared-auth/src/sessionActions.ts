import type { TokenResponse, UserInfo } from 'contracts';
import { api, ApiError, errorMessage } from './apiClient';
import { LOGIN_PATH, rememberRedirect } from './handoff';
import { clearSession, isTokenLive, sessionStore, setToken, setUser } from './session';

export { LOGIN_PATH, rememberRedirect, takeRedirect } from './handoff';

/** Loads the session user for the stored token. Failures are ignored (specification §8): the guard decides. */
export async function loadUserInfo(): Promise<boolean> {
  if (!isTokenLive(sessionStore.getState().token)) return false;
  try {
    const { data } = await api.post<UserInfo>('account/GetUserInfo', undefined, { skipErrorHandling: true });
    setUser(data);
    return true;
  } catch (error) {
    // The server no longer accepts the token (password changed, deactivated): it is worthless here too.
    if (error instanceof ApiError && error.response?.status === 401) clearSession();
    return false;
  }
}

/** Stores a token the server just issued (login, registration, recovery, password change) and loads its user. */
export async function signInWithToken(token: string): Promise<void> {
  setToken(token);
  await loadUserInfo();
}

/** Login failures are rethrown as their message or 'Network error!' (specification §8), for the form to show. */
export async function login(email: string, password: string): Promise<void> {
  try {
    const { data } = await api.post<TokenResponse>('auth/login', { email, password }, { skipErrorHandling: true });
    await signInWithToken(data.token);
  } catch (error) {
    throw new Error(errorMessage(error), { cause: error });
  }
}

/**
 * Set once this page has started loading the login page: clearing the session re-renders the guard,
 * which would start a second load of it a moment later, and a second load cancels whatever the user (or
 * a test) opened meanwhile. A page restored from the back-forward cache starts over.
 */
let leaving = false;
globalThis.addEventListener?.('pageshow', () => {
  leaving = false;
});

function leaveForLogin(how: 'assign' | 'replace'): void {
  if (leaving) return;
  leaving = true;
  globalThis.location?.[how](LOGIN_PATH);
}

/**
 * Signs out and opens the login page by a full page load: the signed-out pages are their own small
 * entry (shell/src/signin), which the console's router does not render.
 */
export function logout(): void {
  leaveForLogin('assign');
  clearSession();
}

/**
 * Sends a signed-out user to the login page (full load), remembering `from` so the login page returns
 * there; `replace` keeps the refused page out of the history, as the guard's redirect did.
 */
export function goToLogin(from: string | null): void {
  if (leaving) return;
  if (from) rememberRedirect(from);
  leaveForLogin('replace');
}
