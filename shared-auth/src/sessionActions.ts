import { AxiosError } from 'axios';
import type { TokenResponse, UserInfo } from 'api/contracts';
import { api, errorMessage } from './apiClient';
import { clearSession, isTokenLive, sessionStore, setToken, setUser } from './session';

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

/** Loads the session user for the stored token. Failures are ignored (specification §8): the guard decides. */
export async function loadUserInfo(): Promise<boolean> {
  if (!isTokenLive(sessionStore.getState().token)) return false;
  try {
    const { data } = await api.post<UserInfo>('account/GetUserInfo', undefined, { skipErrorHandling: true });
    setUser(data);
    return true;
  } catch (error) {
    // The server no longer accepts the token (password changed, deactivated): it is worthless here too.
    if (error instanceof AxiosError && error.response?.status === 401) clearSession();
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

export function logout(): void {
  clearSession();
}
