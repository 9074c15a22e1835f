import { HUB_KEEP_ALIVE_MS, HUB_SERVER_TIMEOUT_MS, startHubClient, type HubClientOptions } from './hubClient';

const RS = '\x1e';

/** A WebSocket the test plays the server of: it records what the client sends and delivers what the test says. */
class FakeSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;
  static last: FakeSocket | undefined;
  readyState = FakeSocket.CONNECTING;
  sent: string[] = [];
  closedWith: number | undefined;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;

  constructor(readonly url: string) {
    FakeSocket.last = this;
  }

  send(data: string): void {
    this.sent.push(data);
  }

  close(code: number): void {
    this.closedWith = code;
    this.readyState = FakeSocket.CLOSED;
  }

  open(): void {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }

  deliver(data: unknown): void {
    this.onmessage?.({ data });
  }

  drop(code: number): void {
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.({ code });
  }
}

const fetchMock = jest.fn();
const realWebSocket = globalThis.WebSocket;
const realFetch = globalThis.fetch;

beforeEach(() => {
  FakeSocket.last = undefined;
  (globalThis as { WebSocket: unknown }).WebSocket = FakeSocket;
  globalThis.fetch = fetchMock;
  fetchMock.mockReset();
  fetchMock.mockResolvedValue({ ok: true, status: 200, json: () => Promise.resolve({ negotiateVersion: 1, connectionId: 'c1', connectionToken: 'tok-1' }) });
});
afterEach(() => {
  (globalThis as { WebSocket: unknown }).WebSocket = realWebSocket;
  globalThis.fetch = realFetch;
  jest.useRealTimers();
});

function options(overrides: Partial<HubClientOptions> = {}): HubClientOptions {
  return { url: '/api/notificationhub', accessToken: () => 'jwt-1', handlers: {}, onClose: jest.fn(), ...overrides };
}

/** Lets the negotiate call settle and the socket be built. */
async function socket(): Promise<FakeSocket> {
  for (let tick = 0; tick < 10 && !FakeSocket.last; tick += 1) await Promise.resolve();
  return FakeSocket.last!;
}

async function connected(opts: HubClientOptions) {
  FakeSocket.last = undefined;
  const starting = startHubClient(opts);
  const ws = await socket();
  ws.open();
  ws.deliver(`{}${RS}`);
  return { client: await starting, ws };
}

describe('hub client (SignalR JSON protocol over WebSockets)', () => {
  test('negotiates with the bearer token, opens the socket with the connection token and sends the handshake', async () => {
    const starting = startHubClient(options());
    const ws = await socket();
    expect(fetchMock).toHaveBeenCalledWith('/api/notificationhub/negotiate?negotiateVersion=1', {
      method: 'POST',
      headers: { Authorization: 'Bearer jwt-1' },
    });
    const url = new URL(ws.url);
    expect(url.protocol).toBe('ws:');
    expect(url.pathname).toBe('/api/notificationhub');
    expect(url.searchParams.get('id')).toBe('tok-1');
    expect(url.searchParams.get('access_token')).toBe('jwt-1');
    ws.open();
    expect(ws.sent).toEqual([`{"protocol":"json","version":1}${RS}`]);
    ws.deliver(`{}${RS}`);
    await expect(starting).resolves.toEqual({ stop: expect.any(Function) });
  });

  test('invocations reach their handlers, several records in a frame and a record split across frames alike', async () => {
    const seen: unknown[][] = [];
    const handlers = { NewNotification: (...args: unknown[]) => seen.push(['n', ...args]), JobProgress: (...args: unknown[]) => seen.push(['j', ...args]) };
    const { ws } = await connected(options({ handlers }));
    ws.deliver(`{"type":1,"target":"NewNotification","arguments":[{"id":1}]}${RS}{"type":6}${RS}{"type":1,"target":"JobPro`);
    expect(seen).toEqual([['n', { id: 1 }]]);
    ws.deliver(`gress","arguments":[{"id":"job-1"}]}${RS}{"type":1,"target":"Unknown","arguments":[]}${RS}`);
    expect(seen).toEqual([
      ['n', { id: 1 }],
      ['j', { id: 'job-1' }],
    ]);
  });

  test('a handshake error rejects the start and closes the socket; onClose is not called', async () => {
    const opts = options();
    const starting = startHubClient(opts);
    const ws = await socket();
    ws.open();
    ws.deliver(`{"error":"The protocol 'json' is not supported."}${RS}`);
    await expect(starting).rejects.toThrow("The protocol 'json' is not supported.");
    expect(ws.closedWith).toBe(1000);
    expect(opts.onClose).not.toHaveBeenCalled();
  });

  test('a refused negotiate rejects without opening a socket', async () => {
    fetchMock.mockResolvedValue({ ok: false, status: 401, json: () => Promise.resolve({ message: 'Please sign in to continue.' }) });
    await expect(startHubClient(options())).rejects.toThrow('The hub refused to negotiate (401).');
    expect(FakeSocket.last).toBeUndefined();
  });

  test("the server's close message and a dropped socket both end the connection once, with onClose", async () => {
    const first = options();
    const { ws } = await connected(first);
    ws.deliver(`{"type":7,"error":"Connection closed: the session expired.","allowReconnect":true}${RS}`);
    expect(first.onClose).toHaveBeenCalledTimes(1);
    expect((first.onClose as jest.Mock).mock.calls[0][0]).toEqual(new Error('Connection closed: the session expired.'));
    ws.drop(1006);
    expect(first.onClose).toHaveBeenCalledTimes(1);

    const second = options();
    const other = await connected(second);
    other.ws.drop(1006);
    expect(second.onClose).toHaveBeenCalledTimes(1);
  });

  test('stop closes the socket without calling onClose', async () => {
    const opts = options();
    const { client, ws } = await connected(opts);
    client.stop();
    expect(ws.closedWith).toBe(1000);
    ws.drop(1000);
    expect(opts.onClose).not.toHaveBeenCalled();
  });

  test('a record that is not JSON ends the connection; a throwing handler does not', async () => {
    jest.useFakeTimers();
    const opts = options({
      handlers: {
        Boom: () => {
          throw new SyntaxError('the page failed');
        },
      },
    });
    const { ws } = await connected(opts);
    ws.deliver(`{"type":1,"target":"Boom","arguments":[]}${RS}`);
    expect(() => jest.runOnlyPendingTimers()).toThrow('the page failed');
    expect(opts.onClose).not.toHaveBeenCalled();
    ws.deliver(`not json${RS}`);
    expect(opts.onClose).toHaveBeenCalledWith(new Error('The hub sent a record that is not JSON.'));
  });

  test('pings every 15 s, and gives up after 30 s without a word from the server', async () => {
    jest.useFakeTimers();
    const opts = options();
    const { ws } = await connected(opts);
    ws.sent.length = 0;
    jest.advanceTimersByTime(HUB_KEEP_ALIVE_MS);
    expect(ws.sent).toEqual([`{"type":6}${RS}`]);
    ws.deliver(`{"type":6}${RS}`);
    jest.advanceTimersByTime(HUB_KEEP_ALIVE_MS);
    expect(opts.onClose).not.toHaveBeenCalled();
    jest.advanceTimersByTime(HUB_SERVER_TIMEOUT_MS);
    expect(opts.onClose).toHaveBeenCalledWith(new Error('The hub went silent.'));
    expect(ws.closedWith).toBe(1000);
  });
});
