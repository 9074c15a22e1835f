import type { EmbedRequest, EmbedToken } from './adapter';
import type * as PowerBiAdapter from './powerbi';

// A fake powerbi-client: the service records what it is asked to embed and hands back a report whose
// events the test raises itself.
type Handler = (event: { detail?: unknown }) => void;
const mockHandlers = new Map<string, Handler>();
const mockReport = {
  on: jest.fn((name: string, handler: Handler) => mockHandlers.set(name, handler)),
  setAccessToken: jest.fn(async (_token: string) => undefined),
  fullscreen: jest.fn(),
};
const mockEmbed = jest.fn((container: HTMLElement, _config: Record<string, unknown>) => {
  container.appendChild(document.createElement('iframe'));
  return mockReport;
});
const mockReset = jest.fn((container: HTMLElement) => container.replaceChildren());
const mockService = jest.fn((..._factories: unknown[]) => ({ embed: mockEmbed, reset: mockReset }));
jest.mock('powerbi-client', () => ({
  service: { Service: mockService },
  factories: { hpmFactory: 'hpmFactory', wpmpFactory: 'wpmpFactory', routerFactory: 'routerFactory' },
  models: { TokenType: { Aad: 0, Embed: 1 }, TraceType: { Information: 0, Verbose: 1, Warning: 2, Error: 3, Fatal: 6 } },
}));

const NOW = Date.parse('2026-03-02T10:00:00Z');
const REPORT_URL = 'https://app.powerbi.com/reportEmbed?reportId=11111111-2222-3333-4444-555555555555&groupId=66666666-7777-8888-9999-000000000000';
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

let powerbi: typeof PowerBiAdapter;
let visibility: DocumentVisibilityState;

beforeAll(() => {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
});

beforeEach(() => {
  jest.useFakeTimers({ now: NOW });
  jest.clearAllMocks();
  mockHandlers.clear();
  visibility = 'visible';
  // A fresh module each test: the adapter keeps one service for the page's lifetime.
  jest.resetModules();
  powerbi = jest.requireActual<typeof PowerBiAdapter>('./powerbi');
});

afterEach(() => {
  jest.useRealTimers();
});

function request(overrides: Partial<EmbedRequest> = {}) {
  const container = document.createElement('div');
  document.body.appendChild(container);
  const onLoaded = jest.fn();
  const onError = jest.fn();
  const refreshToken = jest.fn<Promise<EmbedToken>, []>();
  const req: EmbedRequest = {
    container,
    url: REPORT_URL,
    title: 'Rollout',
    token: { accessToken: 'token-1', expiresAt: inMinutes(60) },
    onLoaded,
    onError,
    refreshToken,
    ...overrides,
  };
  return { req, container, onLoaded, onError, refreshToken };
}

function hidePage(hidden: boolean) {
  visibility = hidden ? 'hidden' : 'visible';
  document.dispatchEvent(new Event('visibilitychange'));
}

test('embeds the report with its embed token, URL and report id through a service built on the library factories', async () => {
  const { req, container } = request();
  await powerbi.createPowerBiEmbed(req);
  expect(mockService).toHaveBeenCalledWith('hpmFactory', 'wpmpFactory', 'routerFactory');
  expect(mockEmbed).toHaveBeenCalledTimes(1);
  expect(mockEmbed.mock.calls[0]![0]).toBe(container);
  expect(mockEmbed.mock.calls[0]![1]).toEqual({
    type: 'report',
    tokenType: 1,
    accessToken: 'token-1',
    embedUrl: REPORT_URL,
    id: '11111111-2222-3333-4444-555555555555',
  });
  const frame = container.querySelector('iframe')!;
  expect(frame.getAttribute('title')).toBe('Rollout');
  expect(frame.style.border).toBe('0px');
});

test("the report's loaded and error events reach the page; Power BI's warnings do not", async () => {
  const { req, onLoaded, onError } = request();
  await powerbi.createPowerBiEmbed(req);
  mockHandlers.get('loaded')!({});
  expect(onLoaded).toHaveBeenCalledTimes(1);

  mockHandlers.get('error')!({ detail: { message: 'Slow visual', level: 2 } });
  expect(onError).not.toHaveBeenCalled();
  mockHandlers.get('error')!({ detail: { message: 'TokenExpired', detailedMessage: 'Access token has expired', level: 6 } });
  expect(onError).toHaveBeenCalledWith('Power BI reported an error: TokenExpired – Access token has expired');
  mockHandlers.get('error')!({ detail: undefined });
  expect(onError).toHaveBeenLastCalledWith('Power BI reported an error.');
});

test('renews the token in place a few minutes before it expires, without embedding again', async () => {
  const { req, refreshToken } = request();
  refreshToken.mockResolvedValueOnce({ accessToken: 'token-2', expiresAt: new Date(NOW + 120 * 60_000).toISOString() });
  await powerbi.createPowerBiEmbed(req);

  await jest.advanceTimersByTimeAsync(60 * 60_000 - powerbi.TOKEN_REFRESH_LEAD_MS - 1000);
  expect(refreshToken).not.toHaveBeenCalled();
  await jest.advanceTimersByTimeAsync(1000);
  expect(refreshToken).toHaveBeenCalledTimes(1);
  expect(mockReport.setAccessToken).toHaveBeenCalledWith('token-2');
  expect(mockEmbed).toHaveBeenCalledTimes(1);

  // The next renewal follows the new token's expiry (120 min after the start).
  refreshToken.mockResolvedValueOnce({ accessToken: 'token-3', expiresAt: new Date(NOW + 180 * 60_000).toISOString() });
  await jest.advanceTimersByTimeAsync(60 * 60_000 - 1000);
  expect(refreshToken).toHaveBeenCalledTimes(1);
  await jest.advanceTimersByTimeAsync(1000);
  expect(mockReport.setAccessToken).toHaveBeenLastCalledWith('token-3');
  expect(mockEmbed).toHaveBeenCalledTimes(1);
});

test('coming back to the tab after the renewal fell due renews at once; coming back early does nothing', async () => {
  const { req, refreshToken } = request();
  refreshToken.mockResolvedValue({ accessToken: 'token-2', expiresAt: inMinutes(120) });
  await powerbi.createPowerBiEmbed(req);

  hidePage(true);
  jest.setSystemTime(NOW + 30 * 60_000);
  hidePage(false);
  await jest.advanceTimersByTimeAsync(0);
  expect(refreshToken).not.toHaveBeenCalled();

  // A hidden tab's timers are throttled: the clock passes the renewal without the timer firing.
  hidePage(true);
  jest.setSystemTime(NOW + 58 * 60_000);
  await jest.advanceTimersByTimeAsync(0);
  expect(refreshToken).not.toHaveBeenCalled();
  hidePage(false);
  await jest.advanceTimersByTimeAsync(0);
  expect(refreshToken).toHaveBeenCalledTimes(1);
  expect(mockReport.setAccessToken).toHaveBeenCalledWith('token-2');
  expect(mockEmbed).toHaveBeenCalledTimes(1);
});

test('a failed renewal is tried again while the token lasts, and said once it has expired', async () => {
  const { req, refreshToken, onError } = request({ token: { accessToken: 'token-1', expiresAt: inMinutes(4) } });
  refreshToken.mockRejectedValue(new Error('Power BI server refused (HTTP 401).'));
  await powerbi.createPowerBiEmbed(req);

  // A 4-minute token is renewed at half its life, then retried until it runs out.
  await jest.advanceTimersByTimeAsync(2 * 60_000);
  expect(refreshToken).toHaveBeenCalledTimes(1);
  expect(onError).not.toHaveBeenCalled();
  await jest.advanceTimersByTimeAsync(2 * 60_000 + powerbi.RETRY_REFRESH_DELAY_MS);
  expect(refreshToken.mock.calls.length).toBeGreaterThan(2);
  expect(mockReport.setAccessToken).not.toHaveBeenCalled();
  expect(onError).toHaveBeenCalledWith("The dashboard's access could not be renewed: Power BI server refused (HTTP 401).");
});

test('fullscreen is the report’s; dispose resets the container and stops every timer and listener', async () => {
  const { req, container, refreshToken, onLoaded } = request();
  refreshToken.mockResolvedValue({ accessToken: 'token-2', expiresAt: inMinutes(120) });
  const adapter = await powerbi.createPowerBiEmbed(req);
  expect(adapter.exportPdf).toBeUndefined();
  adapter.fullscreen();
  expect(mockReport.fullscreen).toHaveBeenCalledTimes(1);

  adapter.dispose();
  expect(mockReset).toHaveBeenCalledWith(container);
  expect(container.querySelector('iframe')).toBeNull();
  jest.setSystemTime(NOW + 59 * 60_000);
  hidePage(false);
  await jest.advanceTimersByTimeAsync(120 * 60_000);
  expect(refreshToken).not.toHaveBeenCalled();
  mockHandlers.get('loaded')!({});
  expect(onLoaded).not.toHaveBeenCalled();
});

test('one service serves every dashboard of the page', async () => {
  await powerbi.createPowerBiEmbed(request().req);
  await powerbi.createPowerBiEmbed(request().req);
  expect(mockService).toHaveBeenCalledTimes(1);
  expect(mockEmbed).toHaveBeenCalledTimes(2);
});

test('refreshDelay: the lead before expiry, half the life of a short token, never sooner than the floor, nothing without an expiry', () => {
  const { refreshDelay, TOKEN_REFRESH_LEAD_MS, MIN_REFRESH_DELAY_MS } = powerbi;
  const at = (ms: number) => new Date(NOW + ms).toISOString();
  expect(refreshDelay(at(60 * 60_000), NOW)).toBe(60 * 60_000 - TOKEN_REFRESH_LEAD_MS);
  expect(refreshDelay(at(60_000), NOW)).toBe(30_000);
  expect(refreshDelay(at(-60_000), NOW)).toBe(MIN_REFRESH_DELAY_MS);
  expect(refreshDelay(null, NOW)).toBeNull();
  expect(refreshDelay('not a date', NOW)).toBeNull();
});

test('reportIdOf reads the report id of an embed URL', () => {
  expect(powerbi.reportIdOf(REPORT_URL)).toBe('11111111-2222-3333-4444-555555555555');
  expect(powerbi.reportIdOf('https://app.powerbi.com/reportEmbed')).toBeUndefined();
  expect(powerbi.reportIdOf('not a url')).toBeUndefined();
});
