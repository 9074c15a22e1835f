import { api, API_TIMEOUT_MS, ApiError, apiRefusal, connectApiClient, errorMessage, errorRoute, isApiError, queryOf, replacingSession } from './apiClient';
import { closePageScope, openPageScope } from './pageScope';
import { clearSession, sessionStore, setToken } from './session';
import { FakeXhr, installFakeXhr } from './testing/fakeXhr';

installFakeXhr();

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const liveToken = (sub: string) => ['e30', btoa(JSON.stringify({ sub, exp: Math.floor(Date.now() / 1000) + 3600 })).replace(/=+$/, ''), 'sig'].join('.');
const user = { id: 1, firstname: 'Ana', lastname: 'Lima', email: 'ana@x.pt', role: 'Manager', operator: null, projects: [] };
const notify = jest.fn();
const navigate = jest.fn();

beforeEach(() => {
  notify.mockReset();
  navigate.mockReset();
  connectApiClient({ notify, navigate });
  sessionStore.setState({ loadingCount: 0 });
});
afterEach(() => clearSession());

/** The request axios has handed to the XHR (its adapter starts after the interceptors' microtasks). */
async function sent(): Promise<FakeXhr> {
  await settle();
  return FakeXhr.last;
}

describe('what is sent', () => {
  test('query parameters: null and undefined left out, dates in ISO form, arrays as repeated keys', () => {
    expect(queryOf(undefined)).toBe('');
    expect(queryOf({ a: undefined, b: null })).toBe('');
    expect(queryOf({ page: 2, filters: '{"siteId":"LX 1&2"}', on: true, at: new Date('2026-03-05T10:00:00Z'), ids: [1, 2] })).toBe(
      'page=2&filters=%7B%22siteId%22%3A%22LX+1%262%22%7D&on=true&at=2026-03-05T10%3A00%3A00.000Z&ids=1&ids=2',
    );
  });

  test('paths join the API base, with their query as the API reads it', async () => {
    void api.get('Tracker/GetTracker', { params: { page: 1, ids: [3, 4] } });
    const xhr = await sent();
    expect([xhr.method, xhr.url]).toEqual(['GET', '/api/Tracker/GetTracker?page=1&ids=3&ids=4']);
  });

  test('the bearer token goes to the API base only: an absolute URL to another host gets none', async () => {
    setToken(liveToken('ana'));
    void api.get('Tracker/GetTracker');
    expect((await sent()).header('Authorization')).toBe(`Bearer ${sessionStore.getState().token}`);
    void api.get('https://bi.example.com/embed');
    const foreign = await sent();
    expect(foreign.url).toBe('https://bi.example.com/embed');
    expect(foreign.header('Authorization')).toBeUndefined();
    void api.get('//evil.example/api/x');
    expect((await sent()).header('Authorization')).toBeUndefined();
    // This page's own origin, outside the API's path, is not the API either.
    void api.get(`${window.location.origin}/remotes/x.json`);
    expect((await sent()).header('Authorization')).toBeUndefined();
    void api.get(`${window.location.origin}/api/Tracker/GetTracker`);
    expect((await sent()).header('Authorization')).toMatch(/^Bearer /);
  });

  test('an object body goes as JSON, form data as it is, and a delete may carry a body', async () => {
    void api.post('Operators/AddOperator', { name: 'Nordlink' });
    const json = await sent();
    expect(json.body).toBe('{"name":"Nordlink"}');
    expect(json.header('Content-Type')).toMatch(/^application\/json/);
    const form = new FormData();
    void api.post('File/Upload', form);
    expect((await sent()).body).toBe(form);
    void api.delete('Users/DeleteUser', { data: { userId: 4 } });
    const del = await sent();
    expect([del.method, del.body]).toEqual(['DELETE', '{"userId":4}']);
  });

  test('upload progress is reported with its fraction', async () => {
    const seen: Array<number | undefined> = [];
    void api.post('File/Upload', new FormData(), { onUploadProgress: (event) => seen.push(event.progress) });
    const xhr = await sent();
    xhr.progress(50, 200);
    xhr.progress(200, 200);
    xhr.reply(200, '{}');
    // axios throttles progress events; the first and the last always arrive.
    await settle();
    expect(seen[0]).toBe(0.25);
    expect(seen.at(-1)).toBe(1);
  });

  test('a download is asked for as a blob and handed over as it came, with its headers', async () => {
    const download = api.get<Blob>('File/Download', { responseType: 'blob' });
    const xhr = await sent();
    expect(xhr.responseType).toBe('blob');
    const blob = new Blob(['PK']);
    xhr.reply(200, blob, 'Content-Type: application/zip\r\nContent-Disposition: attachment; filename="report.zip"\r\n');
    const answer = await download;
    expect(answer.data).toBe(blob);
    expect(answer.headers['content-disposition']).toBe('attachment; filename="report.zip"');
  });
});

describe('the loading counter (specification §4)', () => {
  test('rises per call and falls on its answer or failure; calls flagged without loading never count', async () => {
    const first = api.get('a');
    const second = api.post('b', {});
    const quiet = api.get('Notification/Notifications', { skipLoading: true });
    await settle();
    expect(sessionStore.getState().loadingCount).toBe(2);
    FakeXhr.all[0]!.reply(200, '{}');
    await first;
    expect(sessionStore.getState().loadingCount).toBe(1);
    FakeXhr.all[1]!.reply(409, '{"message":"Taken"}');
    await second.catch(() => undefined);
    expect(sessionStore.getState().loadingCount).toBe(0);
    FakeXhr.all[2]!.reply(200, '[]');
    await quiet;
    expect(sessionStore.getState().loadingCount).toBe(0);
  });
});

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
    expect(errorMessage(apiRefusal(400, 'Plain text'))).toBe('Plain text');
    expect(errorMessage(apiRefusal(409, { message: 'Operator has 2 users' }))).toBe('Operator has 2 users');
    expect(errorMessage(apiRefusal(400, { other: 1 }))).toBe('Something went wrong!');
    expect(errorMessage(new ApiError('Network Error', ApiError.ERR_NETWORK))).toBe('Network error!');
  });

  test.each([
    [404, '{}', '/errors/error-404'],
    [500, '{}', '/errors/error-500'],
    [503, 'Service Unavailable', '/errors/error-500'],
    [598, '{}', '/errors/error-500'],
  ])('a %i answer opens its error page and shows no toast', async (status, body, route) => {
    const call = api.get('x').catch((e: unknown) => e);
    (await sent()).reply(status, body);
    expect(isApiError(await call)).toBe(true);
    expect(navigate).toHaveBeenCalledWith(route);
    expect(notify).not.toHaveBeenCalled();
  });

  test.each([
    [400, '{"message":"Name is required."}', 'Name is required.', 'error'],
    [409, 'Plain refusal', 'Plain refusal', 'error'],
    [422, '{"detail":1}', 'Something went wrong!', 'error'],
    [599, '{"message":"Too slow"}', 'Too slow', 'warning'],
  ])('a %i answer shows its message as a toast (variant by status)', async (status, body, message, variant) => {
    const call = api.post('x', {}).catch(() => undefined);
    (await sent()).reply(status, body);
    await call;
    expect(notify).toHaveBeenCalledWith(message, variant);
    expect(navigate).not.toHaveBeenCalled();
  });

  test("no answer at all is 'Network error!'", async () => {
    const call = api.get('x').catch((e: unknown) => e);
    (await sent()).fail();
    const failure = (await call) as ApiError;
    expect(failure.response).toBeUndefined();
    expect(notify).toHaveBeenCalledWith('Network error!', 'error');
  });

  test('a call whose caller handles its failure is handed back untouched', async () => {
    const call = api.get('x', { skipErrorHandling: true }).catch((e: unknown) => e);
    (await sent()).reply(500, '{"message":"Down"}');
    expect(((await call) as ApiError).response?.status).toBe(500);
    expect(navigate).not.toHaveBeenCalled();
    expect(notify).not.toHaveBeenCalled();
  });
});

describe('a call that never answers', () => {
  afterEach(() => jest.useRealTimers());

  test('fails after the default timeout as a network error and lowers the overlay', async () => {
    jest.useFakeTimers();
    const call = api.get('Monitoring/GetOverallSiteSummary').catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(0);
    expect(FakeXhr.last.timeout).toBe(API_TIMEOUT_MS);
    expect(sessionStore.getState().loadingCount).toBe(1);
    await jest.advanceTimersByTimeAsync(API_TIMEOUT_MS);
    const failure = (await call) as ApiError;
    expect(failure.code).toBe(ApiError.ETIMEDOUT);
    expect(sessionStore.getState().loadingCount).toBe(0);
    expect(notify).toHaveBeenCalledWith('Network error!', 'error');
  });
});

describe('leaving a page', () => {
  test('cancels its reads in flight, silently, and lowers the overlay; writes and reads that outlive the page go on', async () => {
    const scope = openPageScope();
    const read = api.get('Tracker/GetTracker').catch((e: unknown) => e);
    const write = api.post('TableSettings/SaveColumns', {});
    const download = api.get('File/Download', { outlivesPage: true, responseType: 'blob' });
    await settle();
    const [readXhr, writeXhr, downloadXhr] = FakeXhr.all;
    expect(sessionStore.getState().loadingCount).toBe(3);
    closePageScope(scope);
    const cancelled = await read;
    expect(readXhr!.aborted).toBe(true);
    expect(isApiError(cancelled) && cancelled.code).toBe('ERR_CANCELED');
    expect(writeXhr!.aborted).toBe(false);
    expect(downloadXhr!.aborted).toBe(false);
    expect(sessionStore.getState().loadingCount).toBe(2);
    expect(notify).not.toHaveBeenCalled();
    expect(navigate).not.toHaveBeenCalled();
    writeXhr!.reply(200, '{}');
    downloadXhr!.reply(200, new Blob(['x']));
    await Promise.all([write, download]);
    // A read sent after the page was left belongs to no page and is not cancelled by its end.
    void api.get('Notification/Notifications');
    expect((await sent()).aborted).toBe(false);
  });
});

describe('a 401 answer', () => {
  beforeEach(() => setToken(liveToken('ana')));

  async function refusedCall(): Promise<void> {
    const call = api.get('Tracker/GetTracker').catch(() => undefined);
    (await sent()).reply(401, JSON.stringify({ message: 'Please sign in to continue.' }));
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
    const xhr = await sent();
    clearSession();
    xhr.reply(401, '{}');
    await call;
    await settle();
    expect(FakeXhr.all).toHaveLength(1);
    expect(navigate).not.toHaveBeenCalled();
  });

  test('several refused calls ask about the session once', async () => {
    const calls = [api.get('a'), api.get('b'), api.get('c')].map((c) => c.catch(() => undefined));
    await settle();
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
    FakeXhr.last.fail();
    await settle();
    expect(navigate).toHaveBeenCalledWith('/errors/error-401');
    expect(sessionStore.getState().token).not.toBeNull();
  });
});

describe('a change that replaces the token (a password change)', () => {
  beforeEach(() => setToken(liveToken('ana')));

  test('holds calls made meanwhile until the new token is stored, then sends them with it', async () => {
    const successor = liveToken('ana-2');
    const change = replacingSession(async () => {
      const answer = await api.post<{ token: string }>('Account/ChangePassword', {}, { replacesSession: true });
      setToken(answer.data.token);
      return answer.data;
    });
    const changeXhr = await sent();
    expect(changeXhr.url).toBe('/api/Account/ChangePassword');
    const poll = api.get('Notification/Notifications', { skipLoading: true });
    await settle();
    // The poll waits: nothing but the change has gone out.
    expect(FakeXhr.all).toHaveLength(1);
    changeXhr.reply(200, JSON.stringify({ message: 'Password changed!', token: successor }));
    await change;
    const pollXhr = await sent();
    expect(pollXhr.url).toBe('/api/Notification/Notifications');
    expect(pollXhr.header('Authorization')).toBe(`Bearer ${successor}`);
    pollXhr.reply(200, '[]');
    await poll;
  });

  test('a refused change lets the held calls go with the token that still holds', async () => {
    const token = sessionStore.getState().token;
    const change = replacingSession(() => api.post('Account/ChangePassword', {}, { replacesSession: true, skipErrorHandling: true })).catch(() => 'refused');
    const changeXhr = await sent();
    const poll = api.get('Notification/Notifications', { skipLoading: true });
    await settle();
    expect(FakeXhr.all).toHaveLength(1);
    changeXhr.reply(400, JSON.stringify({ message: 'The old password is not correct.' }));
    expect(await change).toBe('refused');
    const pollXhr = await sent();
    expect(pollXhr.header('Authorization')).toBe(`Bearer ${token}`);
    pollXhr.reply(200, '[]');
    await poll;
    // Nothing is held afterwards.
    void api.get('Tracker/GetTracker');
    expect((await sent()).url).toBe('/api/Tracker/GetTracker');
  });
});
