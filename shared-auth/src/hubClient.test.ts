import type { IRetryPolicy } from '@microsoft/signalr';
import { startHubClient, type HubClientOptions } from './hubClient';

/**
 * The official client's builder and connection as far as hubClient drives them: what it was built
 * with, and a connection the test starts, reconnects and closes. The client itself is tested by its
 * authors and, against the API's own hub on every transport, by api/test/hub*.test.ts.
 */
const built: { url?: string; options?: { accessTokenFactory?: () => string }; retry?: IRetryPolicy; connection?: FakeConnection } = {};

/** The next connection's start fails with this, as when the server refuses to negotiate. */
let refuseNextStart: Error | null = null;

class FakeConnection {
  handlers = new Map<string, (...args: unknown[]) => void>();
  reconnected: Array<() => void> = [];
  reconnecting: Array<(error?: Error) => void> = [];
  closed: Array<(error?: Error) => void> = [];
  start = jest.fn(() => {
    const refusal = refuseNextStart;
    refuseNextStart = null;
    return refusal ? Promise.reject(refusal) : Promise.resolve();
  });
  stop = jest.fn(() => {
    this.closed.forEach((listener) => listener());
    return Promise.resolve();
  });
  on(name: string, handler: (...args: unknown[]) => void) {
    this.handlers.set(name, handler);
  }
  onreconnected(listener: () => void) {
    this.reconnected.push(listener);
  }
  onreconnecting(listener: (error?: Error) => void) {
    this.reconnecting.push(listener);
  }
  onclose(listener: (error?: Error) => void) {
    this.closed.push(listener);
  }
}

jest.mock('@microsoft/signalr', () => {
  const actual = jest.requireActual('@microsoft/signalr');
  class HubConnectionBuilder {
    withUrl(url: string, options: { accessTokenFactory?: () => string }) {
      built.url = url;
      built.options = options;
      return this;
    }
    withAutomaticReconnect(policy: IRetryPolicy) {
      built.retry = policy;
      return this;
    }
    configureLogging() {
      return this;
    }
    build() {
      built.connection = new FakeConnection();
      return built.connection;
    }
  }
  return { ...actual, HubConnectionBuilder };
});

function options(overrides: Partial<HubClientOptions> = {}): HubClientOptions {
  return {
    url: '/api/notificationhub',
    accessToken: () => 'jwt-1',
    handlers: {},
    retryDelay: (retries) => 5000 * 2 ** retries,
    onReconnected: jest.fn(),
    onReconnecting: jest.fn(),
    onClose: jest.fn(),
    ...overrides,
  };
}

describe('hub client (the official @microsoft/signalr client)', () => {
  test('connects to the hub with the token of the moment, every transport allowed, and resolves once started', async () => {
    let token = 'jwt-1';
    await startHubClient(options({ accessToken: () => token }));
    expect(built.url).toBe('/api/notificationhub');
    // No transport forced: the client falls back from WebSockets to Server-Sent Events to Long Polling.
    expect(built.options).not.toHaveProperty('transport');
    expect(built.options?.accessTokenFactory?.()).toBe('jwt-1');
    token = 'jwt-2';
    expect(built.options?.accessTokenFactory?.()).toBe('jwt-2');
    expect(built.connection?.start).toHaveBeenCalledTimes(1);
  });

  test('server methods reach their handlers by name', async () => {
    const seen: unknown[] = [];
    await startHubClient(options({ handlers: { NewNotification: (n) => seen.push(n), JobProgress: (e) => seen.push(e) } }));
    built.connection?.handlers.get('NewNotification')?.({ id: 1 });
    built.connection?.handlers.get('JobProgress')?.({ id: 'job-1' });
    expect(seen).toEqual([{ id: 1 }, { id: 'job-1' }]);
  });

  test('reconnects on the schedule it is given, and gives up when told', async () => {
    const retryDelay = jest.fn((retries: number) => (retries < 3 ? 5000 * 2 ** retries : null));
    await startHubClient(options({ retryDelay }));
    const next = (previousRetryCount: number) =>
      built.retry!.nextRetryDelayInMilliseconds({ previousRetryCount, elapsedMilliseconds: 0, retryReason: new Error('x') });
    expect([0, 1, 2, 3].map(next)).toEqual([5000, 10000, 20000, null]);
  });

  test('a reconnect is told (the page fetches what it missed); a close for good is told once, a stop never', async () => {
    const first = options();
    await startHubClient(first);
    const dropped = new Error('WebSocket closed with status code: 1006');
    built.connection?.reconnecting.forEach((listener) => listener(dropped));
    expect(first.onReconnecting).toHaveBeenCalledWith(dropped);
    built.connection?.reconnected.forEach((listener) => listener());
    expect(first.onReconnected).toHaveBeenCalledTimes(1);
    const error = new Error('Server timeout elapsed');
    built.connection?.closed.forEach((listener) => listener(error));
    expect(first.onClose).toHaveBeenCalledWith(error);

    const second = options();
    const client = await startHubClient(second);
    client.stop();
    expect(built.connection?.stop).toHaveBeenCalledTimes(1);
    expect(second.onClose).not.toHaveBeenCalled();
  });

  test('a start the server refuses rejects, without telling onClose (nothing had started)', async () => {
    refuseNextStart = new Error('Failed to complete negotiation with the server: Error: Unauthorized: Status code 401');
    const opts = options();
    await expect(startHubClient(opts)).rejects.toThrow('Status code 401');
    expect(opts.onClose).not.toHaveBeenCalled();
  });
});
