import { createStore, useStore } from 'zustand';
import { storeToken, TOKEN_KEY } from './handoff';
import { ANONYMOUS, isRole, type Principal, type Role } from './policy';

export { TOKEN_KEY };

export interface SessionUser {
  id: number | null;
  firstname: string;
  lastname: string;
  role: Role;
  operator: { id: number; name: string } | null;
  projects: string[];
  avatar: string | null;
  /** Token expiry in seconds since the epoch. */
  tokenExpiry: number | null;
}

export const LOGGED_OUT_USER: SessionUser = {
  id: null,
  firstname: '',
  lastname: '',
  role: 'Client',
  operator: null,
  projects: [],
  avatar: null,
  tokenExpiry: null,
};

export interface SessionState {
  /**
   * Random per module instance. Host and remotes render it so a browser test can prove that every
   * area talks to the same store (module federation singleton), not a private copy.
   */
  readonly instanceId: string;
  token: string | null;
  user: SessionUser;
  /** Requests in flight that asked for the loading overlay. */
  loadingCount: number;
}

function randomId(): string {
  return Math.random().toString(36).slice(2, 10);
}

/** Reads `exp` (seconds) from a JWT without verifying it: the server verifies, the browser only needs to know when to stop trying. */
export function tokenExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof json.exp === 'number' ? json.exp : null;
  } catch {
    return null;
  }
}

export function isTokenLive(token: string | null, nowSeconds = Date.now() / 1000): boolean {
  if (!token) return false;
  const exp = tokenExpiry(token);
  return exp !== null && exp > nowSeconds;
}

function readStoredToken(): string | null {
  try {
    return globalThis.localStorage?.getItem(TOKEN_KEY) ?? null;
  } catch {
    return null;
  }
}

export const sessionStore = createStore<SessionState>()(() => ({
  instanceId: randomId(),
  token: readStoredToken(),
  user: LOGGED_OUT_USER,
  loadingCount: 0,
}));

export function useSession<T>(selector: (state: SessionState) => T): T {
  return useStore(sessionStore, selector);
}

export function isLoggedIn(state: SessionState = sessionStore.getState()): boolean {
  return isTokenLive(state.token);
}

export function setToken(token: string): void {
  storeToken(token);
  sessionStore.setState({ token, user: { ...sessionStore.getState().user, tokenExpiry: tokenExpiry(token) } });
}

export function setUser(user: Omit<SessionUser, 'tokenExpiry'>): void {
  const { token } = sessionStore.getState();
  const role = isRole(user.role) ? user.role : 'Client';
  sessionStore.setState({ user: { ...user, role, tokenExpiry: token ? tokenExpiry(token) : null } });
}

export function clearSession(): void {
  globalThis.localStorage?.removeItem(TOKEN_KEY);
  sessionStore.setState({ token: null, user: LOGGED_OUT_USER });
}

/** The principal the access policy judges: the session user, or anonymous when the token is missing or expired. */
export function principalOf(state: SessionState): Principal {
  if (!isTokenLive(state.token)) return ANONYMOUS;
  return {
    authenticated: true,
    role: state.user.role,
    operatorId: state.user.operator?.id ?? null,
    projects: state.user.projects,
  };
}
