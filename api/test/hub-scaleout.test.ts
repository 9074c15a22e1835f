import { HttpTransportType } from '@microsoft/signalr';
import type { Redis } from 'ioredis';
import { DEMO_PASSWORD } from '../src/seed';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { holdNotificationWrites, stateOf } from './support/hold-writes';
import { startRedisProxy, type RedisProxy } from './support/redis-proxy';
import {
  closeInstance,
  connectionTokenOf,
  Inbox,
  deleteKeys,
  must,
  officialClient,
  randomPrefix,
  rawClient,
  refusalOf,
  requireRedis,
  seedUsers,
  sleep,
  startInstance,
  TEST_REDIS_URL,
  waitFor,
  type OfficialClient,
  type RunningInstance,
} from './support/realtime';

const OS = 'os@cellwise.local';
const HQ = 'hq@cellwise.local';
const INFO = { key: 'test', title: 'Hello', icon: 'info', variant: 'info' } as const;

/** Two API instances on one database and one Redis, as behind a load balancer. */
describe.each(TEST_DATABASES)('hub scaled out over Redis on $name', (kind) => {
  let redis: Redis;
  let prefix: string;
  let database: TestDatabase;
  let a: RunningInstance;
  let b: RunningInstance;
  /** B reaches Redis through it, so a test can make B's subscription lag behind A. */
  let proxy: RedisProxy;
  let users: Map<string, number>;
  let offset = 0;
  const clock = () => Date.now() + offset;
  const clients: OfficialClient[] = [];

  const id = (email: string) => must(users.get(email), email);
  const tokenOf = async (email: string) => must(await a.app.auth.issueToken(id(email)));
  async function connected(instance: RunningInstance, email: string, transport = HttpTransportType.WebSockets): Promise<OfficialClient> {
    const client = officialClient(instance.url, await tokenOf(email), { transport });
    clients.push(client);
    await client.connection.start();
    return client;
  }

  beforeAll(async () => {
    // Fails the suite when Redis is missing: these tests must never pass by not running.
    redis = await requireRedis();
    prefix = randomPrefix();
    database = await kind.open();
    users = await seedUsers(database);
    const realtime = { redisPrefix: prefix, presenceHeartbeatMs: 200 };
    proxy = await startRedisProxy(TEST_REDIS_URL);
    a = await startInstance(database, { clock, env: { REDIS_URL: TEST_REDIS_URL }, realtime });
    b = await startInstance(database, { clock, env: { REDIS_URL: proxy.url }, realtime });
  });
  afterEach(async () => {
    offset = 0;
    await Promise.all(clients.splice(0).map((c) => c.connection.stop()));
  });
  afterAll(async () => {
    if (a) await closeInstance(a);
    if (b) await closeInstance(b);
    await proxy?.close();
    await database?.dispose();
    if (redis) {
      await deleteKeys(redis, prefix);
      redis.disconnect();
    }
  });

  test('health reports the Redis backplane, reachable', async () => {
    for (const instance of [a, b]) {
      const res = await instance.app.inject({ url: '/api/health' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'ok', backplane: { kind: 'redis', reachable: true } });
    }
  });

  test('a notification raised on A reaches a client connected to B within a second, and only its user', async () => {
    const onB = await connected(b, OS);
    const otherOnA = await connected(a, HQ);
    const started = Date.now();
    const [stored] = await a.app.notifications.notify([id(OS)], {
      key: 'run-finished',
      title: 'CPICH validation finished.',
      icon: 'success',
      variant: 'success',
    });
    const received = await onB.notifications.next(1000, 'the notification on B');
    expect(received.at - started).toBeLessThan(1000);
    expect(received.notification).toEqual(stored);
    // Exactly once, not once per instance.
    await a.app.notifications.notify([id(HQ)], INFO);
    await otherOnA.notifications.next(1000);
    expect(onB.notifications.size).toBe(0);
    expect(otherOnA.notifications.size).toBe(0);
  });

  test.each([
    ['WebSockets', HttpTransportType.WebSockets],
    ['ServerSentEvents', HttpTransportType.ServerSentEvents],
    ['LongPolling', HttpTransportType.LongPolling],
  ] as const)('over %s: a client on A gets what B raises (NewNotification, SessionEnded), and its presence is shared', async (_name, transport) => {
    const userId = id(OS);
    const onA = await connected(a, OS, transport);
    const started = Date.now();
    const [stored] = await b.app.notifications.notify([userId], { ...INFO, title: 'Raised on B' });
    const received = await onA.notifications.next(1000, 'the notification on A');
    expect(received.at - started).toBeLessThan(1000);
    expect(received.notification).toEqual(stored);

    offset = 5 * 60 * 1000 + 1000;
    await waitFor(() => b.app.notifications.isOnline(userId), 1000, 'online on B');

    const ended = new Inbox<true>();
    onA.connection.on('SessionEnded', () => ended.push(true));
    await b.app.notifications.endSessions([userId]);
    await ended.next(1000, 'SessionEnded on A');

    await onA.connection.stop();
    await waitFor(async () => !(await b.app.notifications.isOnline(userId)), 1000, 'offline on B');
  });

  test('an event stream or long poll reaching another instance than its connection is refused (404), never held', async () => {
    const token = await tokenOf(OS);
    const auth = { authorization: `Bearer ${token}` };
    const connectionToken = await connectionTokenOf(a.url, token);
    const query = `/api/notificationhub?id=${encodeURIComponent(connectionToken)}`;
    expect((await fetch(`${a.url}${query}`, { headers: auth })).status).toBe(200);
    // The token was used once, on A: B can neither take it over nor pass anything on to it.
    expect((await fetch(`${b.url}${query}`, { headers: auth })).status).toBe(404);
    expect((await fetch(`${b.url}${query}`, { headers: { ...auth, accept: 'text/event-stream' } })).status).toBe(404);
    expect((await fetch(`${b.url}${query}`, { method: 'POST', headers: auth, body: '{"protocol":"json","version":1}\x1e' })).status).toBe(404);
    expect((await fetch(`${a.url}${query}`, { method: 'DELETE', headers: auth })).status).toBe(202);
  });

  test('a notification sent from A is there to read through B the moment it arrives, however far B lags behind A and the write', async () => {
    const onA = await connected(a, OS);
    // Ready before the notification, so the reads go to B in the very turn the client receives it.
    const headers = { authorization: `Bearer ${await tokenOf(OS)}` };
    const held = await holdNotificationWrites(database);
    const lagging = proxy.holdSubscriber();
    try {
      const notifying = a.app.notifications.notify([id(OS)], { ...INFO, title: 'Written soon' });
      const { notification } = await onA.notifications.next(2000, 'the notification on A');
      const listing = b.app.inject({ url: '/api/Notification/Notifications', headers });
      const marking = b.app.inject({ method: 'PUT', url: `/api/Notification/MarkAsRead/${notification.id}`, headers });
      // B has not heard of the notification yet; its reads wait until it has…
      expect(await stateOf(listing)).toBe('waiting');
      lagging.release();
      // …and then, on PostgreSQL, for the write still held.
      if (held) {
        expect(await stateOf(listing)).toBe('waiting');
        expect(await stateOf(marking)).toBe('waiting');
        await held.release();
      }
      expect((await listing).json<Array<{ id: number }>>()[0]?.id).toBe(notification.id);
      expect((await marking).statusCode).toBe(204);
      expect(await notifying).toEqual([notification]);
    } finally {
      // A failed expectation must not leave B deaf or the table locked for the tests after this one.
      lagging.release();
      await held?.release();
    }
  });

  test('a read through B answers even while B hears nothing from Redis', async () => {
    const headers = { authorization: `Bearer ${await tokenOf(HQ)}` };
    const deaf = proxy.holdSubscriber();
    try {
      // B cannot catch up with the backplane; after a bounded wait it reads what is stored.
      const res = await b.app.inject({ url: '/api/Notification/Notifications', headers });
      expect(res.statusCode).toBe(200);
      expect(Array.isArray(res.json())).toBe(true);
    } finally {
      deaf.release();
    }
  });

  test('presence is shared: a connection on B makes the user online for A, and offline once it closes', async () => {
    const userId = id(HQ);
    const client = await connected(b, HQ);
    // Past the activity window, so only the connection can make them online.
    offset = 5 * 60 * 1000 + 1000;
    await waitFor(() => a.app.notifications.isOnline(userId), 1000, 'online on A');
    expect(await a.app.notifications.onlineUserIds()).toEqual([userId]);
    await client.connection.stop();
    await waitFor(async () => !(await a.app.notifications.isOnline(userId)), 1000, 'offline on A');
    expect(await a.app.notifications.onlineUserIds()).toEqual([]);

    // API activity on B counts on A too.
    offset = 20 * 60 * 1000;
    const manager = id('manager@cellwise.local');
    const res = await b.app.inject({ url: '/api/Notification/Notifications', headers: { authorization: `Bearer ${await tokenOf('manager@cellwise.local')}` } });
    expect(res.statusCode).toBe(200);
    await waitFor(() => a.app.notifications.isOnline(manager), 1000, 'activity seen on A');
    expect(await a.app.notifications.onlineUserIds()).toEqual([manager]);
    offset += 5 * 60 * 1000 + 1000;
    expect(await a.app.notifications.isOnline(manager)).toBe(false);
  });

  test('negotiate on one instance, WebSocket on the other (no sticky sessions); the token still works only once', async () => {
    const token = await tokenOf(OS);
    const connectionToken = await connectionTokenOf(a.url, token);
    const client = await rawClient(b.url, connectionToken, token);
    client.send({ protocol: 'json', version: 1 });
    expect(await client.records.next()).toEqual({});
    client.ws.close();
    expect(await refusalOf(rawClient(a.url, connectionToken, token))).toBe(404);
    expect(await refusalOf(rawClient(b.url, connectionToken, token))).toBe(404);
  });

  test('a password change through B is announced once, to the client on A', async () => {
    const email = 'client@cellwise.local';
    const onA = await connected(a, email);
    const res = await b.app.inject({
      method: 'POST',
      url: '/api/Account/ChangePassword',
      headers: { authorization: `Bearer ${await tokenOf(email)}` },
      payload: { oldpassword: DEMO_PASSWORD, newpassword: 'Scaled-Out-Secret-1', confirmnewpassword: 'Scaled-Out-Secret-1' },
    });
    expect(res.statusCode).toBe(200);
    expect((await onA.notifications.next(2000)).notification.key).toBe('password-changed');
    await sleep(300);
    expect(onA.notifications.size).toBe(0);
    expect(
      await database.db.selectFrom('notifications').select('id').where('user_id', '=', id(email)).where('key', '=', 'password-changed').execute(),
    ).toHaveLength(1);
  });
});

describe('hub with Redis unreachable', () => {
  test('health says so (200, degraded) and notifications still reach this instance’s clients', async () => {
    const kind = must(TEST_DATABASES[0]);
    const database = await kind.open();
    const users = await seedUsers(database);
    // Nothing listens on port 1.
    const lonely = await startInstance(database, { env: { REDIS_URL: 'redis://127.0.0.1:1' }, realtime: { redisPrefix: randomPrefix() } });
    try {
      const res = await lonely.app.inject({ url: '/api/health' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'degraded', database: { reachable: true }, backplane: { kind: 'redis', reachable: false } });

      const userId = must(users.get(OS));
      const client = officialClient(lonely.url, must(await lonely.app.auth.issueToken(userId)));
      await client.connection.start();
      await lonely.app.notifications.notify([userId], INFO);
      expect((await client.notifications.next(2000)).notification.title).toBe('Hello');
      await client.connection.stop();
    } finally {
      await lonely.app.close();
      await database.dispose();
    }
  });
});
