import { connectNotificationHub, HUB_MAX_RETRY_DELAY_MS, HUB_RETRY_DELAY_MS, hubRetryDelay } from './hub';
import { startHubClient, type HubClientOptions } from './hubClient';
import { clearSession, setToken } from './session';

jest.mock('./hubClient', () => ({ startHubClient: jest.fn() }));
const started = startHubClient as jest.MockedFunction<typeof startHubClient>;
const lastOptions = () => started.mock.calls.at(-1)![0] as HubClientOptions;

const jwt = (payload: object) => `h.${btoa(JSON.stringify(payload))}.s`;
const signIn = () => setToken(jwt({ exp: Math.floor(Date.now() / 1000) + 3600 }));

afterEach(() => {
  clearSession();
  started.mockReset();
  jest.useRealTimers();
});

test('the retry waits 5 s (specification §9), then backs off to at most a minute', () => {
  expect(HUB_RETRY_DELAY_MS).toBe(5000);
  expect([0, 1, 2, 3, 4, 5, 10].map(hubRetryDelay)).toEqual([
    5000,
    10000,
    20000,
    40000,
    HUB_MAX_RETRY_DELAY_MS,
    HUB_MAX_RETRY_DELAY_MS,
    HUB_MAX_RETRY_DELAY_MS,
  ]);
});

test('a first start that fails is tried again on the same schedule, and the count starts over once connected', async () => {
  jest.useFakeTimers();
  signIn();
  started.mockRejectedValueOnce(new Error('down')).mockRejectedValueOnce(new Error('down')).mockResolvedValue({ stop: jest.fn() });
  const connected = jest.fn();
  const hub = connectNotificationHub({ onNotification: jest.fn(), onConnected: connected });
  await jest.advanceTimersByTimeAsync(0);
  expect(started).toHaveBeenCalledTimes(1);
  await jest.advanceTimersByTimeAsync(HUB_RETRY_DELAY_MS - 1);
  expect(started).toHaveBeenCalledTimes(1);
  await jest.advanceTimersByTimeAsync(1);
  expect(started).toHaveBeenCalledTimes(2);
  // The second failure waits twice as long.
  await jest.advanceTimersByTimeAsync(HUB_RETRY_DELAY_MS);
  expect(started).toHaveBeenCalledTimes(2);
  await jest.advanceTimersByTimeAsync(HUB_RETRY_DELAY_MS);
  expect(started).toHaveBeenCalledTimes(3);
  expect(connected).toHaveBeenCalledTimes(1);
  // Closed for good later: the first retry is 5 s again.
  lastOptions().onClose();
  await jest.advanceTimersByTimeAsync(HUB_RETRY_DELAY_MS);
  expect(started).toHaveBeenCalledTimes(4);
  await hub.stop();
});

test("the client's own reconnects follow the schedule while the session is live, stop when it is not, and a reconnect refetches", async () => {
  signIn();
  started.mockResolvedValue({ stop: jest.fn() });
  const connected = jest.fn();
  const hub = connectNotificationHub({ onNotification: jest.fn(), onConnected: connected });
  for (let tick = 0; tick < 20 && !connected.mock.calls.length; tick += 1) await new Promise((resolve) => setTimeout(resolve, 0));
  const options = lastOptions();
  expect(options.retryDelay(0)).toBe(5000);
  expect(options.retryDelay(2)).toBe(20000);
  options.onReconnected();
  expect(connected).toHaveBeenCalledTimes(2);
  clearSession();
  expect(options.retryDelay(0)).toBeNull();
  await hub.stop();
});

test('after stop nothing is started again', async () => {
  jest.useFakeTimers();
  signIn();
  started.mockRejectedValue(new Error('down'));
  const hub = connectNotificationHub({ onNotification: jest.fn(), onConnected: jest.fn() });
  await jest.advanceTimersByTimeAsync(0);
  await hub.stop();
  await jest.advanceTimersByTimeAsync(HUB_MAX_RETRY_DELAY_MS * 2);
  expect(started).toHaveBeenCalledTimes(1);
});

test('a refusal of the session (401) asks the shell to check it, wherever it shows: a start, a reconnect, a close; a network fault does not', async () => {
  signIn();
  const refused = Object.assign(new Error("Unauthorized: Status code '401'"), { statusCode: 401 });
  started.mockRejectedValueOnce(new Error("Failed to complete negotiation with the server: Error: Unauthorized: Status code '401'"));
  started.mockResolvedValue({ stop: jest.fn() });
  const ended = jest.fn();
  const connected = jest.fn();
  jest.useFakeTimers();
  const hub = connectNotificationHub({ onNotification: jest.fn(), onConnected: connected, onSessionEnded: ended });
  await jest.advanceTimersByTimeAsync(0);
  expect(ended).toHaveBeenCalledTimes(1);
  await jest.advanceTimersByTimeAsync(HUB_RETRY_DELAY_MS);
  expect(connected).toHaveBeenCalledTimes(1);
  lastOptions().onReconnecting?.(refused);
  expect(ended).toHaveBeenCalledTimes(2);
  lastOptions().onReconnecting?.(new Error('WebSocket closed with status code: 1006'));
  lastOptions().onClose(new Error('Server timeout elapsed without receiving a message from the server.'));
  expect(ended).toHaveBeenCalledTimes(2);
  lastOptions().onClose(refused);
  expect(ended).toHaveBeenCalledTimes(3);
  await hub.stop();
});
