import { HubConnectionState } from '@microsoft/signalr';
import WebSocket from 'ws';
import { signSessionToken, TOKEN_LIFETIME_SECONDS } from '../src/auth/jwt';
import { HUB_MESSAGES } from '../src/hub';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { holdNotificationWrites, stateOf } from './support/hold-writes';
import {
  connectionTokenOf,
  must,
  negotiate,
  officialClient,
  rawClient,
  refusalOf,
  RS,
  seedUsers,
  sleep,
  startInstance,
  TEST_JWT_SECRET,
  waitFor,
  type OfficialClient,
  type RunningInstance,
} from './support/realtime';

const INFO = { key: 'test', title: 'Hello', icon: 'info', variant: 'info' } as const;

describe.each(TEST_DATABASES)('notification hub on $name', (kind) => {
  let database: TestDatabase;
  let hub: RunningInstance;
  let users: Map<string, number>;
  /** Moves the API's clock (token expiry, activity window); real timers are untouched. */
  let offset = 0;
  const clock = () => Date.now() + offset;
  const clients: OfficialClient[] = [];

  const id = (email: string) => must(users.get(email), email);
  const tokenOf = async (email: string) => must(await hub.app.auth.issueToken(id(email)), `token of ${email}`);
  async function connected(email: string, timing?: { serverTimeoutMs?: number; keepAliveMs?: number }): Promise<OfficialClient> {
    const client = officialClient(hub.url, await tokenOf(email), { keepAliveMs: 300, ...timing });
    clients.push(client);
    await client.connection.start();
    return client;
  }

  beforeAll(async () => {
    database = await kind.open();
    users = await seedUsers(database);
    hub = await startInstance(database, {
      clock,
      realtime: { hub: { pingIntervalMs: 200, clientTimeoutMs: 1500, handshakeTimeoutMs: 1000, connectionTokenTtlMs: 1000, revalidateIntervalMs: 300 } },
    });
  });
  afterEach(async () => {
    offset = 0;
    await Promise.all(clients.splice(0).map((c) => c.connection.stop()));
  });
  afterAll(async () => {
    await hub.app.close();
    await database.dispose();
  });

  test('the official client connects with a session token and gets NewNotification within a second of notify, only for its user', async () => {
    const os = await connected('os@cellwise.local');
    const hq = await connected('hq@cellwise.local');
    expect(os.connection.state).toBe(HubConnectionState.Connected);

    const started = Date.now();
    const [stored] = await hub.app.notifications.notify([id('os@cellwise.local')], {
      key: 'import-finished',
      title: 'Import finished: 12 rows.',
      icon: 'success',
      variant: 'success',
    });
    const received = await os.notifications.next(1000, 'NewNotification');
    expect(received.at - started).toBeLessThan(1000);
    expect(received.notification).toEqual(stored);
    expect(received.notification).toEqual({
      id: expect.any(Number),
      key: 'import-finished',
      title: 'Import finished: 12 rows.',
      addedDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      icon: 'success',
      variant: 'success',
      readed: false,
      // The suite's own work is the first operator's (test/support/operator.ts).
      operator: { id: 1, name: 'Vodafone PT' },
    });

    // HQ's first message is its own: it never saw OS's.
    await hub.app.notifications.notify([id('hq@cellwise.local')], { ...INFO, title: 'For HQ' });
    expect((await hq.notifications.next()).notification.title).toBe('For HQ');
  });

  test('every connection of the user gets it', async () => {
    const tabs = [await connected('manager@cellwise.local'), await connected('manager@cellwise.local')];
    await hub.app.notifications.notify([id('manager@cellwise.local')], INFO);
    for (const tab of tabs) expect((await tab.notifications.next()).notification.key).toBe('test');
  });

  test('a console reading its list or marking the new one read the moment it arrives finds it there, even while it is being written', async () => {
    const email = 'client@cellwise.local';
    const client = await connected(email);
    const headers = { authorization: `Bearer ${await tokenOf(email)}` };
    const held = await holdNotificationWrites(database);
    try {
      const notifying = hub.app.notifications.notify([id(email)], { ...INFO, title: 'Fresh' });
      const { notification } = await client.notifications.next(2000, 'the notification, before its write ends');
      const listing = hub.app.inject({ url: '/api/Notification/Notifications', headers });
      const marking = hub.app.inject({ method: 'PUT', url: `/api/Notification/MarkAsRead/${notification.id}`, headers });
      if (held) {
        expect(await stateOf(listing)).toBe('waiting');
        expect(await stateOf(notifying)).toBe('waiting');
        await held.release();
      }
      expect((await listing).json<Array<{ id: number; title: string }>>()[0]).toMatchObject({ id: notification.id, title: 'Fresh' });
      expect((await marking).statusCode).toBe(204);
      expect(await notifying).toEqual([notification]);
    } finally {
      // A failed expectation must not leave the table locked for the tests after this one.
      await held?.release();
    }
  });

  test('negotiate answers version 1 with a connection token and all three transports; the token may come in the query', async () => {
    const token = await tokenOf('os@cellwise.local');
    for (const how of ['header', 'query'] as const) {
      const res = await negotiate(hub.url, token, how);
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toEqual({
        negotiateVersion: 1,
        connectionId: expect.any(String),
        connectionToken: expect.any(String),
        availableTransports: [
          { transport: 'WebSockets', transferFormats: ['Text', 'Binary'] },
          { transport: 'ServerSentEvents', transferFormats: ['Text'] },
          { transport: 'LongPolling', transferFormats: ['Text'] },
        ],
      });
      expect(body.connectionToken).not.toBe(body.connectionId);
    }
    const anonymous = await fetch(`${hub.url}/api/notificationhub/negotiate?negotiateVersion=1`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ message: expect.any(String) });
  });

  test('refused without a token, with an expired or forged one, for a deactivated user and after a password change', async () => {
    const userId = id('client@cellwise.local');
    const claims = { userId, role: 'Client' as const, operatorId: null, projects: [] };
    const nowSeconds = Math.floor(Date.now() / 1000);
    const expired = signSessionToken(claims, TEST_JWT_SECRET, nowSeconds - TOKEN_LIFETIME_SECONDS - 5);
    const forged = signSessionToken(claims, 'another-secret-that-is-long-enough-0123456789', nowSeconds);
    const valid = await tokenOf('client@cellwise.local');

    const refusedStart = async (token: string) => {
      const client = officialClient(hub.url, token);
      await expect(client.connection.start()).rejects.toThrow(/401/);
      expect(client.connection.state).toBe(HubConnectionState.Disconnected);
    };
    await refusedStart('');
    await refusedStart(expired);
    await refusedStart(forged);

    // The WebSocket request is judged on its own too, even with a good connection token.
    expect(await refusalOf(rawClient(hub.url, await connectionTokenOf(hub.url, valid), null))).toBe(401);
    expect(await refusalOf(rawClient(hub.url, await connectionTokenOf(hub.url, valid), expired))).toBe(401);
    expect(await refusalOf(rawClient(hub.url, await connectionTokenOf(hub.url, valid), forged))).toBe(401);

    await database.db.updateTable('users').set({ deactivated_at: new Date().toISOString() }).where('id', '=', userId).execute();
    try {
      await refusedStart(valid);
    } finally {
      await database.db.updateTable('users').set({ deactivated_at: null }).where('id', '=', userId).execute();
    }
    // The same token works again once the user is active: the refusal above was the deactivation.
    const again = officialClient(hub.url, valid);
    clients.push(again);
    await again.connection.start();

    const before = await connectionTokenOf(hub.url, valid);
    await database.db
      .updateTable('users')
      // From the clock now, not from the start of the test: under load the sign-in above can come more
      // than a second after it, and its token would then postdate the cut-off.
      .set({ tokens_valid_after: Math.floor(Date.now() / 1000) + 1 })
      .where('id', '=', userId)
      .execute();
    await refusedStart(valid);
    expect(await refusalOf(rawClient(hub.url, before, valid))).toBe(401);
  });

  test('a connection token is used once, expires unused, and belongs to its user', async () => {
    const token = await tokenOf('os@cellwise.local');
    const connectionToken = await connectionTokenOf(hub.url, token);
    const first = await rawClient(hub.url, connectionToken, token);
    first.ws.close();
    expect(await refusalOf(rawClient(hub.url, connectionToken, token))).toBe(404);

    const unused = await connectionTokenOf(hub.url, token);
    await sleep(1200);
    expect(await refusalOf(rawClient(hub.url, unused, token))).toBe(404);

    const hqs = await connectionTokenOf(hub.url, await tokenOf('hq@cellwise.local'));
    expect(await refusalOf(rawClient(hub.url, hqs, token))).toBe(404);
    expect(await refusalOf(rawClient(hub.url, `${connectionToken.slice(0, -2)}xx`, token))).toBe(404);
    expect(await refusalOf(rawClient(hub.url, '', token))).toBe(400);
    // WebSocket requests for any other path are answered, not left hanging.
    const elsewhere = new WebSocket(`${hub.url.replace('http', 'ws')}/api/elsewhere`);
    const status = await new Promise<number>((resolve) => {
      elsewhere.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      elsewhere.once('open', () => resolve(101));
      elsewhere.once('error', () => resolve(-1));
    });
    elsewhere.terminate();
    expect(status).toBe(404);
  });

  test('JSON protocol: handshake, several messages in one frame, unknown methods answered with an error completion', async () => {
    const token = await tokenOf('os@cellwise.local');
    const client = await rawClient(hub.url, await connectionTokenOf(hub.url, token), token);
    // Handshake, an invocation expecting an answer, one that does not (send), a ping: one frame.
    client.send(
      { protocol: 'json', version: 1 },
      { type: 1, invocationId: '7', target: 'DeleteEverything', arguments: [] },
      { type: 1, target: 'FireAndForget', arguments: [] },
      { type: 6 },
    );
    expect(await client.records.next()).toEqual({});
    let answer = await client.records.next();
    while (answer.type === 6) answer = await client.records.next();
    expect(answer).toEqual({ type: 3, invocationId: '7', error: "Unknown hub method 'DeleteEverything'" });

    // Two notifications close together may share a frame; each arrives as its own record.
    await hub.app.notifications.notify([id('os@cellwise.local')], { ...INFO, title: 'one' });
    await hub.app.notifications.notify([id('os@cellwise.local')], { ...INFO, title: 'two' });
    const titles: unknown[] = [];
    while (titles.length < 2) {
      const record = await client.records.next();
      if (record.type === 1) {
        expect(record.target).toBe('NewNotification');
        titles.push((record.arguments as Array<{ title: string }>)[0]?.title);
      }
    }
    expect(titles).toEqual(['one', 'two']);
    client.ws.close();

    // A record split across two frames is still one record.
    const split = await rawClient(hub.url, await connectionTokenOf(hub.url, token), token);
    split.ws.send('{"protocol":"js');
    split.ws.send(`on","version":1}${RS}`);
    expect(await split.records.next()).toEqual({});
    split.ws.close();

    // The official client sees the same error for a method the hub does not have.
    const official = await connected('os@cellwise.local');
    await expect(official.connection.invoke('DeleteEverything')).rejects.toThrow("Unknown hub method 'DeleteEverything'");
    expect(official.connection.state).toBe(HubConnectionState.Connected);
  });

  test('a handshake for another protocol is refused with an error and the connection closed', async () => {
    const token = await tokenOf('os@cellwise.local');
    const client = await rawClient(hub.url, await connectionTokenOf(hub.url, token), token);
    client.ws.send(JSON.stringify({ protocol: 'messagepack', version: 1 }) + RS);
    expect(await client.records.next()).toEqual({ error: expect.stringContaining("'messagepack' is not supported") });
    await client.closed;

    const silent = await rawClient(hub.url, await connectionTokenOf(hub.url, token), token);
    // No handshake at all: closed after the handshake timeout.
    await expect(Promise.race([silent.closed, sleep(2500).then(() => 'still open')])).resolves.toBe(1008);
  });

  test('the server pings, so an idle client outlives its server timeout; a client that falls silent is closed with a reason', async () => {
    const idle = await connected('os@cellwise.local', { serverTimeoutMs: 800 });
    await sleep(2000);
    expect(idle.connection.state).toBe(HubConnectionState.Connected);
    expect(idle.closed.size).toBe(0);

    const token = await tokenOf('os@cellwise.local');
    const raw = await rawClient(hub.url, await connectionTokenOf(hub.url, token), token);
    raw.send({ protocol: 'json', version: 1 });
    expect(await raw.records.next()).toEqual({});
    expect(await raw.records.next(1000, 'a ping')).toEqual({ type: 6 });
    // This client never pings back: after clientTimeoutMs the server says why and closes.
    let record = await raw.records.next(2500, 'a close message');
    while (record.type === 6) record = await raw.records.next(2500, 'a close message');
    expect(record).toEqual({ type: 7, error: HUB_MESSAGES.clientTimeout, allowReconnect: true });
    await raw.closed;
  });

  test('a connection ends when its session does: deactivation, token expiry', async () => {
    const userId = id('client@cellwise.local');
    const deactivated = await connected('client@cellwise.local');
    await database.db.updateTable('users').set({ deactivated_at: new Date().toISOString() }).where('id', '=', userId).execute();
    try {
      const error = await deactivated.closed.next(2000, 'the close');
      expect(error?.message).toContain(HUB_MESSAGES.sessionEnded);
    } finally {
      await database.db.updateTable('users').set({ deactivated_at: null }).where('id', '=', userId).execute();
    }

    const expiring = await connected('client@cellwise.local');
    offset = TOKEN_LIFETIME_SECONDS * 1000 + 1000;
    const error = await expiring.closed.next(2000, 'the close');
    expect(error?.message).toContain(HUB_MESSAGES.expired);
  });

  test('presence: a live hub connection makes the user online; API activity counts for five minutes', async () => {
    const userId = id('hq@cellwise.local');
    const client = await connected('hq@cellwise.local');
    // Negotiating was API activity too; past the activity window only the connection keeps them online.
    offset = 5 * 60 * 1000 + 1000;
    expect(await hub.app.notifications.isOnline(userId)).toBe(true);
    expect(await hub.app.notifications.onlineUserIds()).toEqual([userId]);
    await client.connection.stop();
    await waitFor(async () => !(await hub.app.notifications.isOnline(userId)), 1000, 'offline after the connection closed');
    expect(await hub.app.notifications.onlineUserIds()).toEqual([]);

    offset = 10 * 60 * 1000;
    const manager = id('manager@cellwise.local');
    const res = await hub.app.inject({
      url: '/api/Notification/Notifications',
      headers: { authorization: `Bearer ${await tokenOf('manager@cellwise.local')}` },
    });
    expect(res.statusCode).toBe(200);
    expect(await hub.app.notifications.isOnline(manager)).toBe(true);
    expect(await hub.app.notifications.onlineUserIds()).toEqual([manager]);
    offset += 5 * 60 * 1000 - 1000;
    expect(await hub.app.notifications.isOnline(manager)).toBe(true);
    offset += 2000;
    expect(await hub.app.notifications.isOnline(manager)).toBe(false);
    // A request without a valid session is nobody's activity.
    await hub.app.inject({ url: '/api/Notification/Notifications' });
    expect(await hub.app.notifications.onlineUserIds()).toEqual([]);
  });
});

describe('notification hub without pings (the control for the keep-alive test)', () => {
  test('an idle client times out when the server stays silent, and a shutdown tells clients why', async () => {
    const kind = must(TEST_DATABASES[0]);
    const database = await kind.open();
    const users = await seedUsers(database);
    const silent = await startInstance(database, { realtime: { hub: { pingIntervalMs: 60_000 } } });
    try {
      const token = must(await silent.app.auth.issueToken(must(users.get('os@cellwise.local'))));
      const idle = officialClient(silent.url, token, { serverTimeoutMs: 800, keepAliveMs: 300 });
      await idle.connection.start();
      const error = await idle.closed.next(2500, 'the timeout');
      expect(error?.message).toMatch(/Server timeout elapsed/);

      const other = officialClient(silent.url, token);
      await other.connection.start();
      await silent.app.close();
      const closedBy = await other.closed.next(2000, 'the shutdown close');
      expect(closedBy?.message).toContain(HUB_MESSAGES.shuttingDown);
    } finally {
      await silent.app.close();
      await database.dispose();
    }
  });
});
