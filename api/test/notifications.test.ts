import type { UserNotification } from 'contracts';
import { runInOperator, runUnscoped } from '../src/db/operator-scope';
import { PASSWORD_CHANGED } from '../src/notifications';
import { NOT_FOUND_MESSAGE } from '../src/notifications/routes';
import { POPOVER_READ_LIMIT } from '../src/notifications/store';
import { DEMO_PASSWORD } from '../src/seed';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { TEST_OPERATOR_ID } from './support/operator';
import { must, officialClient, seedUsers, startInstance, type RunningInstance } from './support/realtime';

const OS = 'os@cellwise.local';
const HQ = 'hq@cellwise.local';
const MINUTE = 60_000;

describe.each(TEST_DATABASES)('notifications on $name', (kind) => {
  let database: TestDatabase;
  let api: RunningInstance;
  let users: Map<string, number>;
  let operators: Map<string, number>;
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
    operators = new Map((await database.db.selectFrom('operators').select(['id', 'name']).execute()).map((o) => [o.name, o.id]));
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
      // Raised outside any request or job: the suites' own work is the first operator's.
      operator: { id: TEST_OPERATOR_ID, name: 'Vodafone PT' },
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
      // Raised by the client's own request: in the operator the client is in (NOS, the only one).
      const nos = { id: must(operators.get('NOS'), 'NOS'), name: 'NOS' };
      expect(notification).toEqual({ id: expect.any(Number), ...PASSWORD_CHANGED, addedDate: new Date(now).toISOString(), readed: false, operator: nos });
      expect(PASSWORD_CHANGED).toEqual({ key: 'password-changed', title: 'Your password was changed.', icon: 'info', variant: 'info' });
      tokens.set(email, res.json<{ token: string }>().token);
      expect(await list(email)).toEqual([notification]);
    } finally {
      await client.connection.stop();
    }
  });
  test('a notification records the operator of the work that raised it, and every list answers it', async () => {
    const meo = must(operators.get('MEO'), 'MEO');
    const [inMeo] = await runInOperator(meo, () => notifyAt([id(HQ)], 'in MEO'));
    const [system] = await runUnscoped(() => notifyAt([id(HQ)], 'system work'));
    const [noOperator] = await runInOperator(null, () => notifyAt([id(HQ)], 'no current operator'));
    // What the hub pushed (notify's answer is the pushed copy) says the operator too.
    expect(must(inMeo).operator).toEqual({ id: meo, name: 'MEO' });
    expect(must(system).operator).toBeNull();
    expect(must(noOperator).operator).toBeNull();

    const rows = await database.db.selectFrom('notifications').select(['title', 'operator_id']).orderBy('id').execute();
    expect(rows.map((r) => [r.title, r.operator_id === null ? null : Number(r.operator_id)])).toEqual([
      ['in MEO', meo],
      ['system work', null],
      ['no current operator', null],
    ]);

    const popover = (await list(HQ)) as UserNotification[];
    expect(popover.map((n) => [n.title, n.operator])).toEqual([
      ['no current operator', null],
      ['system work', null],
      ['in MEO', { id: meo, name: 'MEO' }],
    ]);
    const page = (await list(HQ, '?page=1&size=10')) as { rows: UserNotification[] };
    expect(page.rows.map((n) => n.operator?.name ?? null)).toEqual([null, null, 'MEO']);
    expect(page.rows[2]).toEqual(popover[2]);
  });

  test("a job's end is notified in the operator the job was submitted in, whichever work starts it", async () => {
    const meo = must(operators.get('MEO'), 'MEO');
    let release = () => {};
    const blocked = new Promise<void>((resolve) => (release = resolve));
    api.app.jobs.register({ kind: 'test.tenancy-block', label: 'Blocker', idempotent: false, run: () => blocked.then(() => ({ message: 'ok' })) });
    api.app.jobs.register({
      kind: 'test.tenancy-notice',
      label: 'Tenancy notice',
      idempotent: false,
      run: () => Promise.resolve({ message: 'done' }),
      notificationKey: () => 'test-tenancy',
    });
    // Two system jobs fill the queue, so the MEO job is started by the end of one of them, in its
    // context (as a pg-boss worker starts every job): the operator must come from the job itself.
    const blockers = await runUnscoped(() => Promise.all([1, 2].map(() => api.app.jobs.enqueue('test.tenancy-block', null, {}))));
    const job = await runInOperator(meo, () => api.app.jobs.enqueue('test.tenancy-notice', id(HQ), {}));
    release();
    expect((await api.app.jobs.waitFor(job.id)).state).toBe('succeeded');
    for (const blocker of blockers) await api.app.jobs.waitFor(blocker.id);
    await waitForNotice(() => list(HQ));
    const [notice] = ((await list(HQ)) as UserNotification[]).filter((n) => n.key === 'test-tenancy');
    expect(must(notice, 'the job notification').operator).toEqual({ id: meo, name: 'MEO' });
  });

  /** The job's notification is written once the runner has told its owner, just after the job finished. */
  async function waitForNotice(read: () => Promise<unknown>): Promise<void> {
    for (let i = 0; i < 100; i += 1) {
      if (((await read()) as UserNotification[]).some((n) => n.key === 'test-tenancy')) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('the job notification never came');
  }
});
