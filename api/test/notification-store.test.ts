import { sql } from 'kysely';
import { PendingStores } from '../src/notifications/pending';
import { prepareNotifications, saveNotifications, type NotificationContent } from '../src/notifications/store';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { must, seedUsers } from './support/realtime';

const CONTENT: NotificationContent = { key: 'import-finished', title: 'Import finished: 3 rows.', icon: 'success', variant: 'success' };
const AT = '2026-04-01T08:00:00.000Z';

describe.each(TEST_DATABASES)('notification store on $name', (kind) => {
  let database: TestDatabase;
  let users: number[];

  beforeAll(async () => {
    database = await kind.open();
    users = [...(await seedUsers(database)).values()].sort((a, b) => a - b);
  });
  afterAll(async () => {
    await database.dispose();
  });

  const rows = () => database.db.selectFrom('notifications').selectAll().orderBy('id').execute();

  test('ids are taken before the write, and the write stores exactly the notifications sent, one per distinct existing user', async () => {
    const [a, b, c] = users;
    const prepared = await prepareNotifications(database.db, [must(c), must(a), must(c), 987_654, -1, must(b)], CONTENT, AT);
    expect(prepared.notifications.map((n) => n.userId)).toEqual([c, a, b]);
    const ids = prepared.notifications.map((n) => n.notification.id);
    expect(new Set(ids).size).toBe(3);
    expect(await rows()).toEqual([]);

    const stored = await saveNotifications(database.db, prepared);
    expect(stored).toEqual(prepared.notifications);
    // Prepared outside a request or job: the suite's own work is the first operator's (test/support/operator.ts).
    expect(prepared.notifications[0]?.notification).toEqual({ id: ids[0], ...CONTENT, addedDate: AT, readed: false, operator: { id: 1, name: 'Vodafone PT' } });
    const written = await rows();
    expect(written.map((r) => Number(r.operator_id))).toEqual([1, 1, 1]);
    expect(written.map((r) => ({ id: r.id, user_id: r.user_id, key: r.key, title: r.title, added_date: r.added_date, readed: Number(r.readed) }))).toEqual(
      prepared.notifications
        .map((n) => ({ id: n.notification.id, user_id: n.userId, key: CONTENT.key, title: CONTENT.title, added_date: AT, readed: 0 }))
        .sort((x, y) => x.id - y.id),
    );
  });

  test('notifications prepared side by side never share an id, and rows inserted the ordinary way come after them', async () => {
    const first = await prepareNotifications(database.db, users, CONTENT, AT);
    const second = await prepareNotifications(database.db, users, { ...CONTENT, title: 'Second' }, AT);
    const taken = [...first.notifications, ...second.notifications].map((n) => n.notification.id);
    expect(new Set(taken).size).toBe(users.length * 2);
    // Written in the other order, as two concurrent notify calls may finish.
    await saveNotifications(database.db, second);
    await saveNotifications(database.db, first);
    const { id: plain } = await database.db
      .insertInto('notifications')
      .values({ user_id: must(users[0]), key: 'k', title: 't', added_date: AT, icon: 'info', variant: 'info', readed: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(Number(plain)).toBeGreaterThan(Math.max(...taken));
    const next = await prepareNotifications(database.db, [must(users[0])], CONTENT, AT);
    expect(must(next.notifications[0]).notification.id).toBeGreaterThan(Number(plain));
  });

  test('a user deleted between taking the ids and writing is skipped; the others are stored', async () => {
    const [keep] = users;
    const role = await database.db.selectFrom('roles').select('id').executeTakeFirstOrThrow();
    const { id: leaving } = await database.db
      .insertInto('users')
      .values({
        firstname: 'Leaving',
        lastname: 'Soon',
        email: 'leaving@cellwise.local',
        password_hash: null,
        role_id: role.id,
        operator_id: null,
        email_confirmed: 1,
        deactivated_at: null,
        avatar: null,
        created_at: AT,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const prepared = await prepareNotifications(database.db, [leaving, must(keep)], CONTENT, AT);
    expect(prepared.notifications.map((n) => n.userId)).toEqual([leaving, keep]);
    await database.db.deleteFrom('users').where('id', '=', leaving).execute();
    const stored = await saveNotifications(database.db, prepared);
    expect(stored.map((n) => n.userId)).toEqual([keep]);
    expect(await database.db.selectFrom('notifications').select('id').where('user_id', '=', leaving).execute()).toEqual([]);
  });

  test('no existing user: nothing is taken or written', async () => {
    const before = (await rows()).length;
    const prepared = await prepareNotifications(database.db, [987_654, 0, 2 ** 40], CONTENT, AT);
    expect(prepared.notifications).toEqual([]);
    expect(await saveNotifications(database.db, prepared)).toEqual([]);
    expect(await rows()).toHaveLength(before);
  });

  if (kind.name === 'sqlite') {
    test('on a database whose notifications were never numbered, the first ids follow the rows there are', async () => {
      await database.db.deleteFrom('notifications').execute();
      await sql`delete from sqlite_sequence where name = 'notifications'`.execute(database.db);
      const prepared = await prepareNotifications(database.db, users.slice(0, 2), CONTENT, AT);
      expect(prepared.notifications.map((n) => n.notification.id)).toEqual([1, 2]);
      await saveNotifications(database.db, prepared);
      const { id } = await database.db
        .insertInto('notifications')
        .values({ user_id: must(users[0]), key: 'k', title: 't', added_date: AT, icon: 'info', variant: 'info', readed: 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      expect(id).toBe(3);
    });
  }
});

describe('pending notification writes', () => {
  const later = () => {
    let resolve: () => void = () => undefined;
    const promise = new Promise<void>((r) => (resolve = r));
    return { promise, resolve };
  };
  const state = (promise: Promise<void>) => Promise.race([promise.then(() => 'settled'), new Promise((r) => setTimeout(() => r('waiting'), 20))]);

  test("a read waits for its own user's writes only, and not for writes begun after it asked", async () => {
    const pending = new PendingStores();
    const write = later();
    pending.track([1, 2], write.promise);
    const reading = pending.settled(1);
    expect(await state(reading)).toBe('waiting');
    expect(await state(pending.settled(3))).toBe('settled');
    pending.track([1], new Promise<void>(() => undefined));
    write.resolve();
    expect(await state(reading)).toBe('settled');
    expect(await state(pending.settled(2))).toBe('settled');
  });

  test("another instance's write is waited for until it says it ended, or at most the timeout", async () => {
    const pending = new PendingStores();
    pending.trackRemote('batch-1', [7], 10_000);
    const reading = pending.settled(7);
    expect(await state(reading)).toBe('waiting');
    pending.settleRemote('batch-2');
    expect(await state(reading)).toBe('waiting');
    pending.settleRemote('batch-1');
    expect(await state(reading)).toBe('settled');

    pending.trackRemote('lost', [8], 50);
    const abandoned = pending.settled(8);
    expect(await state(abandoned)).toBe('waiting');
    await new Promise((r) => setTimeout(r, 80));
    expect(await state(abandoned)).toBe('settled');

    pending.trackRemote('at-shutdown', [9], 10_000);
    pending.close();
    expect(await state(pending.settled(9))).toBe('settled');
  });
});
