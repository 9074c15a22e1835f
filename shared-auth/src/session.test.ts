import { clearSession, isTokenLive, principalOf, sessionStore, setToken, setUser, TOKEN_KEY, tokenExpiry } from './session';

function jwt(payload: object): string {
  const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${b64({ alg: 'HS256' })}.${b64(payload)}.sig`;
}

describe('session store', () => {
  afterEach(() => clearSession());

  test('expiry is compared in seconds', () => {
    const now = 1_700_000_000;
    expect(tokenExpiry(jwt({ exp: now + 60 }))).toBe(now + 60);
    expect(isTokenLive(jwt({ exp: now + 60 }), now)).toBe(true);
    expect(isTokenLive(jwt({ exp: now - 1 }), now)).toBe(false);
    expect(isTokenLive('garbage', now)).toBe(false);
    expect(isTokenLive(null, now)).toBe(false);
  });

  test('login stores the token under vdfptAppToken; logout resets the user to Client', () => {
    const token = jwt({ exp: Math.floor(Date.now() / 1000) + 3600 });
    setToken(token);
    setUser({ id: 7, firstname: 'Ana', lastname: 'Silva', role: 'Manager', operator: { id: 1, name: 'NOS' }, projects: ['Operations'], avatar: null });
    expect(localStorage.getItem(TOKEN_KEY)).toBe(token);
    expect(principalOf(sessionStore.getState())).toEqual({ authenticated: true, role: 'Manager', operatorId: 1, projects: ['Operations'] });
    clearSession();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(sessionStore.getState().user.role).toBe('Client');
    expect(principalOf(sessionStore.getState()).authenticated).toBe(false);
  });

  test('an expired token makes the principal anonymous even if a user is loaded', () => {
    setToken(jwt({ exp: Math.floor(Date.now() / 1000) - 10 }));
    setUser({ id: 1, firstname: 'A', lastname: 'B', role: 'Administrator', operator: null, projects: [], avatar: null });
    expect(principalOf(sessionStore.getState()).authenticated).toBe(false);
  });
});
