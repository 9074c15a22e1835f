import { api, ApiError, apiRefusal, connectApiClient, errorMessage, errorRoute } from './apiClient';
import { clearSession, sessionStore, setToken } from './session';
import { FakeXhr, installFakeXhr } from './testing/fakeXhr';

const httpError = (status: number, data: unknown) => apiRefusal(status, data);

describe('error mapping (specification §8)', () => {
  test('routes by status', () => {
    expect(errorRoute(401)).toBe('/errors/error-401');
    expect(errorRoute(404)).toBe('/errors/error-404');
    expect(errorRoute(500)).toBe('/errors/error-500');
    expect(errorRoute(598)).toBe('/errors/error-500');
    expect(errorRoute(599)).toBeNull();
    expect(errorRoute(400)).toBeNull();
  });

  test('message: string body, else message field, else the fallback; no response is a network error', () => {
    expect(errorMessage(httpError(400, 'Plain text'))).toBe('Plain text');
    expect(errorMessage(httpError(409, { message: 'Operator has 2 users' }))).toBe('Operator has 2 users');
    expect(errorMessage(httpError(400, { other: 1 }))).toBe('Something went wrong!');
    expect(errorMessage(new ApiError('Network Error', { method: 'GET', url: 'x', headers: {} }))).toBe('Network error!');
  });
});

describe('a 401 answer', () => {
  installFakeXhr();
  const navigate = jest.fn();
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  const liveToken = (sub: string) => ['e30', btoa(JSON.stringify({ sub, exp: Math.floor(Date.now() / 1000) + 3600 })).replace(/=+$/, ''), 'sig'].join('.');
  const user = { id: 1, firstname: 'Ana', lastname: 'Lima', email: 'ana@x.pt', role: 'Manager', operator: null, projects: [] };

  beforeEach(() => {
    navigate.mockReset();
    connectApiClient({ navigate });
    setToken(liveToken('ana'));
  });
  afterEach(() => clearSession());

  async function refusedCall(): Promise<void> {
    const call = api.get('Tracker/GetTracker').catch(() => undefined);
    FakeXhr.last.reply(401, JSON.stringify({ message: 'Please sign in to continue.' }));
    await call;
    await settle();
  }

  test('to a session the server still accepts opens the 401 page', async () => {
    await refusedCall();
    expect(FakeXhr.last.url).toBe('/api/account/GetUserInfo');
    FakeXhr.last.reply(200, JSON.stringify(user));
    await settle();
    expect(navigate).toHaveBeenCalledWith('/errors/error-401');
    expect(sessionStore.getState().token).not.toBeNull();
  });

  test('to a session the server has ended (deactivated) signs out instead, leaving the way to the login page', async () => {
    await refusedCall();
    FakeXhr.last.reply(401, JSON.stringify({ message: 'Please sign in to continue.' }));
    await settle();
    expect(navigate).not.toHaveBeenCalled();
    expect(sessionStore.getState().token).toBeNull();
  });

  test('that arrives after the session was ended elsewhere (the hub sign-out) goes nowhere and asks nothing', async () => {
    const call = api.get('Tracker/GetTracker').catch(() => undefined);
    clearSession();
    FakeXhr.last.reply(401, '{}');
    await call;
    await settle();
    expect(FakeXhr.all).toHaveLength(1);
    expect(navigate).not.toHaveBeenCalled();
  });

  test('several refused calls ask about the session once', async () => {
    const calls = [api.get('a'), api.get('b'), api.get('c')].map((c) => c.catch(() => undefined));
    FakeXhr.all.slice(0, 3).forEach((xhr) => xhr.reply(401, '{}'));
    await Promise.all(calls);
    await settle();
    expect(FakeXhr.all.map((xhr) => xhr.url)).toEqual(['/api/a', '/api/b', '/api/c', '/api/account/GetUserInfo']);
    FakeXhr.last.reply(200, JSON.stringify(user));
    await settle();
    expect(navigate).toHaveBeenCalledTimes(3);
  });

  test('a network failure while asking is no proof the session ended: the 401 page opens', async () => {
    await refusedCall();
    FakeXhr.last.onerror?.();
    await settle();
    expect(navigate).toHaveBeenCalledWith('/errors/error-401');
    expect(sessionStore.getState().token).not.toBeNull();
  });
});
