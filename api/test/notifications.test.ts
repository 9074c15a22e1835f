import type { UserNotification } from '../src/contracts/notifications';
import { PASSWORD_CHANGED } from '../src/notifications';
import { NOT_FOUND_MESSAGE } from '../src/notifications/routes';
import { POPOVER_READ_LIMIT } from '../src/notifications/store';
import { DEMO_PASSWORD } from '../src/seed';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { must, officialClient, seedUsers, startInstance, type RunningInstance } from './support/realtime';

const OS = 'os@cellwise.local';
const HQ = 'hq@cellwise.local';
const MINUTE = 60_000;

describe.each(TEST_DATABASES)('notifications on $name', (kind) => {
  let database: TestDatabase;
  let api: RunningInstance;
  let users: Map<string, number>;
  let now = Date.parse('2026-04-01T08:00:00.000Z');
  const tokens = new Map<string, string>();

  const id = (email: string) => must(users.get(email), email);
  const as = (email: string) => ({ authorization: `Bearer ${must(tokens.get(email), `token of ${email}`)}` });
  const list = async (email: string, query = '') => {
    const res = await api.app.inject({ url: `/api/Notification/Notifications${query}`, headers: as(email) });
    expect(res.statusCode).toBe(200);
    return res.json<unknown>();
  };
  const put = (url: string, email?: string) => api.app.inject({ method: 'PUT', url, headers: email ? as(email) : {} });
  /** One notification per call, a minute apart, so "newest first" is about time. */
  const notifyAt = async (userIds: number[], title: string) => {
    now += MINUTE;
    return api.app.notifications.notify(userIds, { key: 'test', title, icon: 'info', variant: 'info' });
  };

  beforeAll(async () => {
    database = await kind.open();
    users = await seedUsers(database);
    api = await startInstance(database, { clock: () => now });
    for (const email of [OS, HQ, 'manager@cellwise.local', 'client@cellwise.local']) tokens.set(email, must(await api.app.auth.issueToken(id(email))));
  });
  afterAll(async () => {
    await api.app.close();
    await database.dispose();
  });
  beforeEach(async () => {
    await database.db.deleteFrom('notifications').execute();
  });

  test("the list is the caller's own, newest first, in the specification's shape", async () => {
    await notifyAt([id(OS)], 'first');
    await notifyAt([id(OS), id(HQ)], 'second');
    await notifyAt([id(HQ)], 'for HQ only');
    const third = await notifyAt([id(OS)], 'third');

    const mine = (await list(OS)) as UserNotification[];
    expect(mine.map((n) => n.title)).toEqual(['third', 'second', 'first']);
    expect(mine[0]).toEqual({ ...must(third[0]), addedDate: '2026-04-01T08:04:00.000Z' });
    expect(mine[0]).toEqual({
      id: expect.any(Number),
      key: 'test',
      title: 'third',
      addedDate: '2026-04-01T08:04:00.000Z',
      icon: 'info',
      variant: 'info',
      readed: false,
    });
    expect(((await list(HQ)) as UserNotification[]).map((n) => n.title)).toEqual(['for HQ only', 'second']);
    expect(await list('manager@cellwise.local')).toEqual([]);
  });

  test('notifications raised within the same millisecond still come newest first', async () => {
    for (const title of ['a', 'b', 'c']) await api.app.notifications.notify([id(OS)], { key: 'test', title, icon: 'warning', variant: 'warning' });
    expect(((await list(OS)) as UserNotification[]).map((n) => n.title)).toEqual(['c', 'b', 'a']);
  });

  test('paging and the unread filter answer { rows, total }; without paging the plain list', async () => {
    for (const title of ['n1', 'n2', 'n3', 'n4', 'n5']) await notifyAt([id(OS)], title);
    const [n2] = ((await list(OS)) as UserNotification[]).filter((n) => n.title === 'n2');
    expect((await put(`/api/Notification/MarkAsRead/${must(n2).id}`, OS)).statusCode).toBe(204);
    // Read and unread ones interleave by time in the plain list.
    expect(((await list(OS)) as UserNotification[]).map((n) => [n.title, n.readed])).toEqual([
      ['n5', false],
      ['n4', false],
      ['n3', false],
      ['n2', true],
      ['n1', false],
    ]);

    const titles = (page: unknown) => (page as { rows: UserNotification[] }).rows.map((n) => n.title);
    const first = await list(OS, '?page=1&size=2');
    expect(first).toEqual({ rows: expect.any(Array), total: 5 });
    expect(titles(first)).toEqual(['n5', 'n4']);
    expect(titles(await list(OS, '?page=3&size=2'))).toEqual(['n1']);
    expect(titles(await list(OS, '?page=4&size=2'))).toEqual([]);
    expect(titles(await list(OS, '?page=1'))).toEqual(['n5', 'n4', 'n3', 'n2', 'n1']);

    const unreadPage = await list(OS, '?unread=true&page=1&size=10');
    expect(unreadPage).toEqual({ rows: expect.any(Array), total: 4 });
    expect(titles(unreadPage)).toEqual(['n5', 'n4', 'n3', 'n1']);
    expect(((await list(OS, '?unread=true')) as UserNotification[]).map((n) => n.title)).toEqual(['n5', 'n4', 'n3', 'n1']);

    for (const bad of ['?page=0', '?size=101', '?page=x', '?other=1']) {
      const res = await api.app.inject({ url: `/api/Notification/Notifications${bad}`, headers: as(OS) });
      expect([bad, res.statusCode]).toEqual([bad, 400]);
    }
  });

  test('the plain list holds every unread notification and only the newest read ones', async () => {
    for (let i = 0; i < POPOVER_READ_LIMIT + 5; i += 1) await notifyAt([id(OS)], `old ${i}`);
    expect((await put('/api/Notification/MarkAllAsRead', OS)).json()).toEqual({ updated: POPOVER_READ_LIMIT + 5 });
    await notifyAt([id(OS)], 'unread 1');
    await notifyAt([id(OS)], 'unread 2');
    const popover = (await list(OS)) as UserNotification[];
    expect(popover).toHaveLength(POPOVER_READ_LIMIT + 2);
    expect(popover.slice(0, 3).map((n) => [n.title, n.readed])).toEqual([
      ['unread 2', false],
      ['unread 1', false],
      [`old ${POPOVER_READ_LIMIT + 4}`, true],
    ]);
    expect(popover.at(-1)?.title).toBe('old 5');
  });

  test("MarkAsRead marks the owner's notification; someone else's or an unknown id is 404", async () => {
    const [mine] = await notifyAt([id(OS)], 'mine');
    const [theirs] = await notifyAt([id(HQ)], 'theirs');
    const mineId = must(mine).id;
    const theirsId = must(theirs).id;

    const res = await put(`/api/Notification/MarkAsRead/${mineId}`, OS);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(((await list(OS)) as UserNotification[])[0]).toEqual({ ...mine, readed: true });
    // Reading it again changes nothing and is not an error.
    expect((await put(`/api/Notification/MarkAsRead/${mineId}`, OS)).statusCode).toBe(204);

    for (const target of [theirsId, theirsId + 1000, 2_147_483_647]) {
      const refused = await put(`/api/Notification/MarkAsRead/${target}`, OS);
      expect([target, refused.statusCode, refused.json()]).toEqual([target, 404, { message: NOT_FOUND_MESSAGE }]);
    }
    // Beyond what an id can be: bad input, refused before any lookup.
    for (const target of [2_147_483_648, 99_999_999_999]) expect((await put(`/api/Notification/MarkAsRead/${target}`, OS)).statusCode).toBe(400);
    expect(((await list(HQ)) as UserNotification[])[0]).toEqual({ ...theirs, readed: false });
    expect((await put('/api/Notification/MarkAsRead/abc', OS)).statusCode).toBe(400);
    expect((await put('/api/Notification/markasread/0', OS)).statusCode).toBe(400);
    // Paths match case-insensitively, as everywhere in the API.
    expect((await put(`/api/notification/markasread/${mineId}`, OS)).statusCode).toBe(204);
  });

  test('MarkAllAsRead marks only the caller’s unread ones and says how many', async () => {
    await notifyAt([id(OS), id(HQ)], 'a');
    await notifyAt([id(OS)], 'b');
    const [c] = await notifyAt([id(OS)], 'c');
    await put(`/api/Notification/MarkAsRead/${must(c).id}`, OS);

    const res = await put('/api/Notification/MarkAllAsRead', OS);
    expect([res.statusCode, res.json()]).toEqual([200, { updated: 2 }]);
    expect(((await list(OS)) as UserNotification[]).every((n) => n.readed)).toBe(true);
    expect((await put('/api/Notification/MarkAllAsRead', OS)).json()).toEqual({ updated: 0 });
    expect(((await list(HQ)) as UserNotification[]).map((n) => n.readed)).toEqual([false]);
  });

  test('every notification route needs a session', async () => {
    const [n] = await notifyAt([id(OS)], 'x');
    for (const res of [
      await api.app.inject({ url: '/api/Notification/Notifications' }),
      await put(`/api/Notification/MarkAsRead/${must(n).id}`),
      await put('/api/Notification/MarkAllAsRead'),
      await api.app.inject({ url: '/api/Notification/Notifications', headers: { authorization: 'Bearer not-a-token' } }),
    ]) {
      expect([res.statusCode, typeof res.json<{ message?: unknown }>().message]).toEqual([401, 'string']);
    }
    expect(((await list(OS)) as UserNotification[])[0]?.readed).toBe(false);
  });

  test('notify stores one row per distinct existing user and refuses malformed content', async () => {
    const stored = await api.app.notifications.notify([id(OS), id(OS), 987_654, -1, id(HQ)], { key: 'k', title: 't', icon: 'error', variant: 'error' });
    expect(stored.map((n) => n.title)).toEqual(['t', 't']);
    expect(await database.db.selectFrom('notifications').select('user_id').orderBy('user_id').execute()).toEqual(
      [id(OS), id(HQ)].sort((a, b) => a - b).map((user_id) => ({ user_id })),
    );
    expect(await api.app.notifications.notify([], { key: 'k', title: 't', icon: 'info', variant: 'info' })).toEqual([]);
    const bad = { key: 'k', title: 't', icon: 'loud', variant: 'info' } as unknown as Parameters<typeof api.app.notifications.notify>[1];
    await expect(api.app.notifications.notify([id(OS)], bad)).rejects.toThrow(RangeError);
    await expect(api.app.notifications.notify([id(OS)], { key: '', title: 't', icon: 'info', variant: 'info' })).rejects.toThrow(RangeError);
    expect(await database.db.selectFrom('notifications').select('id').execute()).toHaveLength(2);
  });

  test('a password change notifies the user, live on the hub and in the list, once', async () => {
    const email = 'client@cellwise.local';
    const client = officialClient(api.url, must(tokens.get(email)));
    await client.connection.start();
    try {
      const res = await api.app.inject({
        method: 'POST',
        url: '/api/Account/ChangePassword',
        headers: as(email),
        payload: { oldpassword: DEMO_PASSWORD, newpassword: 'Another-Secret-42', confirmnewpassword: 'Another-Secret-42' },
      });
      expect(res.statusCode).toBe(200);
      const { notification } = await client.notifications.next(2000, 'the password notification');
      expect(notification).toEqual({ id: expect.any(Number), ...PASSWORD_CHANGED, addedDate: new Date(now).toISOString(), readed: false });
      expect(PASSWORD_CHANGED).toEqual({ key: 'password-changed', title: 'Your password was changed.', icon: 'info', variant: 'info' });
      tokens.set(email, res.json<{ token: string }>().token);
      expect(await list(email)).toEqual([notification]);
    } finally {
      await client.connection.stop();
    }
  });
});
