import { clearSession, sessionStore, setToken } from 'shared-auth';
import { TOKEN_KEY } from 'shared-auth/handoff';
import { takeHandedOverToken } from './tokenHandoff';

/** A token the browser takes as live or expired (it only reads `exp`; the server verifies). */
function tokenFor(userId: number, expiresIn = 3600): string {
  const part = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ userId, exp: Math.floor(Date.now() / 1000) + expiresIn })}.signature`;
}

const address = () => window.location.pathname + window.location.search + window.location.hash;

afterEach(() => {
  clearSession();
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('a session token handed over in the address', () => {
  test('leaves the address at once, the rest of it kept, and becomes the session of a console without one', () => {
    const token = tokenFor(1);
    window.history.replaceState({ from: 'menu' }, '', `/management/jobs?state=failed&access_token=${encodeURIComponent(token)}#top`);
    expect(takeHandedOverToken()).toBe(true);
    expect(address()).toBe('/management/jobs?state=failed#top');
    expect(window.history.state).toEqual({ from: 'menu' });
    expect(sessionStore.getState().token).toBe(token);
    expect(localStorage.getItem(TOKEN_KEY)).toBe(token);
  });

  test("never replaces the console's own live session (a link does not switch the account)", () => {
    const own = tokenFor(1);
    setToken(own);
    window.history.replaceState(null, '', `/management/jobs?access_token=${tokenFor(2)}`);
    expect(takeHandedOverToken()).toBe(true);
    expect(address()).toBe('/management/jobs');
    expect(sessionStore.getState().token).toBe(own);
  });

  test('replaces an expired one', () => {
    setToken(tokenFor(1, -60));
    const handed = tokenFor(1);
    window.history.replaceState(null, '', `/management/jobs?access_token=${handed}`);
    takeHandedOverToken();
    expect(sessionStore.getState().token).toBe(handed);
  });

  test.each([
    ['empty', ''],
    ['not a token', 'not-a-jwt'],
    ['expired', tokenFor(1, -60)],
  ])('an %s one is dropped from the address and not kept', (_case, token) => {
    window.history.replaceState(null, '', `/management/jobs?access_token=${token}`);
    expect(takeHandedOverToken()).toBe(true);
    expect(address()).toBe('/management/jobs');
    expect(sessionStore.getState().token).toBeNull();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  test('an address without one is left alone', () => {
    window.history.replaceState(null, '', '/management/jobs?state=failed');
    expect(takeHandedOverToken()).toBe(false);
    expect(address()).toBe('/management/jobs?state=failed');
  });
});
