import type { Socket } from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import WebSocket from 'ws';
import { buildApp } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import type { UserNotification } from 'contracts';
import type { RealtimeOptions } from '../../src/notifications';
import { seed } from '../../src/seed';
import { fakeWebRoot } from './app';
import type { TestDatabase } from './databases';

/** Shared by every instance of a test, as scaled-out instances must share it. */
export const TEST_JWT_SECRET = 'hub-tests-secret-0123456789-abcdefghijklmnop';
export const RS = '\x1e';

export interface RunningInstance {
  app: FastifyInstance;
  config: Config;
  /** http://127.0.0.1:<port> */
  url: string;
  /** Sockets open to the server now. */
  sockets: Set<Socket>;
}

/**
 * Closes an instance. Node's fetch (the official client's, and the tests') may keep a socket it opened
 * for a request it then aborted (a long-polling client stopping): it never sends a byte, and the
 * server's close would wait for it until the headers timeout.
 */
export async function closeInstance(instance: RunningInstance): Promise<void> {
  const closing = instance.app.close();
  for (const socket of instance.sockets) if (socket.bytesRead === 0) socket.destroy();
  await closing;
}

/** A whole API listening on a loopback port: the hub needs a real HTTP server for its WebSocket upgrades. */
export async function startInstance(
  database: TestDatabase,
  options: { env?: NodeJS.ProcessEnv; realtime?: RealtimeOptions; clock?: () => number } = {},
): Promise<RunningInstance> {
  const webRoot = fakeWebRoot();
  const config = loadConfig({ WEB_ROOT: webRoot, DATA_DIR: path.join(webRoot, 'data'), LOG_LEVEL: 'silent', JWT_SECRET: TEST_JWT_SECRET, ...options.env });
  const app = await buildApp(
    {
      config,
      db: database.db,
      dialect: database.dialect,
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.realtime ? { realtime: options.realtime } : {}),
    },
    { logger: false },
  );
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no address');
  return { app, config, url: `http://127.0.0.1:${address.port}`, sockets };
}

/** The seeded users (administrator and one per role), by e-mail. */
export async function seedUsers(database: TestDatabase): Promise<Map<string, number>> {
  await seed(database.db, { adminEmail: 'admin@cellwise.local', adminPassword: 'Admin-Password-1', demoData: true });
  const rows = await database.db.selectFrom('users').select(['id', 'email']).execute();
  return new Map(rows.map((r) => [r.email, r.id]));
}

export function must<T>(value: T | undefined | null, what = 'value'): T {
  if (value === undefined || value === null) throw new Error(`${what} is missing`);
  return value;
}

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 2000, what = 'condition'): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Values arriving one by one, awaited in order. */
export class Inbox<T> {
  private readonly items: T[] = [];
  private waiters: Array<(item: T) => void> = [];

  push(item: T): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter(item);
    else this.items.push(item);
  }

  get size(): number {
    return this.items.length;
  }

  next(timeoutMs = 1000, what = 'a message'): Promise<T> {
    const ready = this.items.shift();
    if (ready !== undefined) return Promise.resolve(ready);
    return new Promise<T>((resolve, reject) => {
      const waiter = (item: T) => {
        clearTimeout(timer);
        resolve(item);
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`no ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }
}

export interface OfficialClient {
  connection: HubConnection;
  notifications: Inbox<{ notification: UserNotification; at: number }>;
  closed: Inbox<Error | undefined>;
}

/**
 * The official client with its token from a factory, over one transport (WebSockets unless told).
 * In Node it reads Server-Sent Events with the `eventsource` package it depends on.
 */
export function officialClient(
  baseUrl: string,
  token: string,
  timing: { serverTimeoutMs?: number; keepAliveMs?: number; transport?: HttpTransportType } = {},
): OfficialClient {
  const connection = new HubConnectionBuilder()
    .withUrl(`${baseUrl}/api/notificationhub`, { accessTokenFactory: () => token, transport: timing.transport ?? HttpTransportType.WebSockets })
    .configureLogging(LogLevel.None)
    .build();
  if (timing.serverTimeoutMs) connection.serverTimeoutInMilliseconds = timing.serverTimeoutMs;
  if (timing.keepAliveMs) connection.keepAliveIntervalInMilliseconds = timing.keepAliveMs;
  const notifications = new Inbox<{ notification: UserNotification; at: number }>();
  const closed = new Inbox<Error | undefined>();
  connection.on('NewNotification', (notification: UserNotification) => notifications.push({ notification, at: Date.now() }));
  connection.onclose((error) => closed.push(error));
  return { connection, notifications, closed };
}

export async function negotiate(baseUrl: string, token: string, how: 'header' | 'query' = 'header'): Promise<Response> {
  const query = how === 'query' ? `&access_token=${encodeURIComponent(token)}` : '';
  return fetch(`${baseUrl}/api/notificationhub/negotiate?negotiateVersion=1${query}`, {
    method: 'POST',
    headers: how === 'header' ? { Authorization: `Bearer ${token}` } : {},
  });
}

export async function connectionTokenOf(baseUrl: string, token: string): Promise<string> {
  const res = await negotiate(baseUrl, token);
  expect(res.status).toBe(200);
  return ((await res.json()) as { connectionToken: string }).connectionToken;
}

/** A hand-driven WebSocket speaking the protocol, for what the official client never sends. */
export interface RawClient {
  ws: WebSocket;
  /** Parsed records, in order. */
  records: Inbox<Record<string, unknown>>;
  closed: Promise<number>;
  send(...records: object[]): void;
}

/** Opens the WebSocket (token in the query, as browsers send it, unless `token` is null); rejects with the HTTP status if refused. */
export function rawClient(baseUrl: string, connectionToken: string, token: string | null): Promise<RawClient> {
  const query = `id=${encodeURIComponent(connectionToken)}${token ? `&access_token=${encodeURIComponent(token)}` : ''}`;
  const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/api/notificationhub?${query}`);
  const records = new Inbox<Record<string, unknown>>();
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  ws.on('message', (data: Buffer) => {
    for (const text of data.toString('utf8').split(RS)) if (text) records.push(JSON.parse(text) as Record<string, unknown>);
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () =>
      resolve({
        ws,
        records,
        closed,
        send: (...messages) => ws.send(messages.map((m) => JSON.stringify(m) + RS).join('')),
      }),
    );
    ws.once('unexpected-response', (_request, response) => {
      reject(Object.assign(new Error(`refused with ${response.statusCode}`), { status: response.statusCode }));
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

/** The status a refused WebSocket request got (or 0 if it was accepted, which the caller then reports). */
export async function refusalOf(connecting: Promise<RawClient>): Promise<number> {
  try {
    const client = await connecting;
    client.ws.terminate();
    return 0;
  } catch (error) {
    return (error as { status?: number }).status ?? -1;
  }
}

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** Scale-out tests need Redis: they fail (not skip) without it, so a broken CI cannot look green. */
export async function requireRedis(url = TEST_REDIS_URL): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    expect(await redis.ping()).toBe('PONG');
  } catch (error) {
    redis.disconnect();
    throw new Error(`Redis is required at ${url} for the scale-out tests: ${(error as Error).message}`, { cause: error });
  }
  return redis;
}

/** A prefix of its own per run, so parallel runs sharing a Redis never see each other's keys or channels. */
export function randomPrefix(): string {
  return `test:${randomBytes(6).toString('hex')}:`;
}

export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}
