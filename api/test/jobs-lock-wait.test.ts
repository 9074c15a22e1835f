import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { InProcessQueue, JobRunner, type JobKind } from '../src/jobs';
import { LOCKED, writeWhenFree, writeWithoutWaiting } from '../src/jobs/lock-wait';
import { TEST_DATABASES, type TestDatabase } from './support/databases';

/**
 * On SQLite the main thread's connection is synchronous, so a write that waits for a worker thread's
 * transaction in SQLite's busy handler stops the whole event loop meanwhile (a job's progress and
 * heartbeat writes stalled the console for seconds during an import). The job store never waits so:
 * it tries without waiting and, when the lock is taken, tries again later with the loop running.
 * Here a second connection in this very thread holds the lock, so a write that blocked would never
 * see it released: the tests would time out or the write would fail instead of landing.
 */
const sqlite = TEST_DATABASES.find((kind) => kind.name === 'sqlite')!;

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 20));

describe('job store writes never make the event loop wait for SQLite’s write lock', () => {
  let database: TestDatabase;
  let other: SQLite.Database;
  let owner: number;

  beforeAll(async () => {
    database = await sqlite.open();
    await sql`create table lock_probe (id integer primary key, value text)`.execute(database.db);
    other = new SQLite(database.options.sqliteFile);
    // The owner of the job below (roles are seeded by the migrations or not: one of our own either way).
    await sql`insert into roles (name) values ('Lock probe')`.execute(database.db);
    await sql`insert into users (firstname, lastname, email, role_id, created_at)
      select 'Lock', 'Probe', 'lock.probe@cellwise.local', id, '2026-01-01T00:00:00.000Z' from roles where name = 'Lock probe'`.execute(database.db);
    owner = (await database.db.selectFrom('users').select('id').where('email', '=', 'lock.probe@cellwise.local').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    if (other.inTransaction) other.exec('rollback');
    other.close();
    await database.dispose();
  });

  /** Another connection (as a worker thread's) holds the write lock until the returned function is called. */
  function holdLock(): () => void {
    other.exec('begin immediate');
    other.prepare(`insert into lock_probe (value) values ('held')`).run();
    return () => other.exec('commit');
  }

  test('a write meeting the lock answers LOCKED at once and keeps the connection’s busy timeout (0 on the main thread)', async () => {
    const release = holdLock();
    try {
      const answer = await writeWithoutWaiting(database.db, (db) => sql`insert into lock_probe (value) values ('main')`.execute(db));
      expect(answer).toBe(LOCKED);
      const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(database.db);
      expect(Number(rows[0]?.timeout)).toBe(0);
    } finally {
      release();
    }
    const written = await writeWithoutWaiting(database.db, (db) => sql`insert into lock_probe (value) values ('main')`.execute(db));
    expect(written).not.toBe(LOCKED);
    const { rows } = await sql<{ n: number }>`select count(*) as n from lock_probe where value = 'main'`.execute(database.db);
    expect(Number(rows[0]?.n)).toBe(1);
  });

  test('a write that must happen waits with the event loop running, and lands once the lock is free', async () => {
    const release = holdLock();
    let landed = false;
    const write = writeWhenFree(database.db, async (db) => {
      await sql`insert into lock_probe (value) values ('patient')`.execute(db);
      landed = true;
    });
    // Timers still fire: the loop was not blocked by the waiting write.
    await nextTurn();
    await nextTurn();
    expect(landed).toBe(false);
    release();
    await write;
    expect(landed).toBe(true);
  });

  test('any other write of the main thread (a statement, a transaction) waits for the lock with the event loop running, then lands', async () => {
    // An upload during a log parse answered 500: its insert spun in the busy handler, then failed (issue 44).
    const release = holdLock();
    const landed: string[] = [];
    const statement = sql`insert into lock_probe (value) values ('statement')`.execute(database.db).then(() => landed.push('statement'));
    const transaction = database.db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into lock_probe (value) values ('transaction 1')`.execute(trx);
        await sql`insert into lock_probe (value) values ('transaction 2')`.execute(trx);
      })
      .then(() => landed.push('transaction'));
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 5);
    try {
      for (let i = 0; i < 5; i++) await nextTurn();
      expect(ticks).toBeGreaterThanOrEqual(5);
      expect(landed).toEqual([]);
    } finally {
      clearInterval(timer);
      release();
    }
    await Promise.all([statement, transaction]);
    expect(landed.sort()).toEqual(['statement', 'transaction']);
    const { rows } = await sql<{ value: string }>`select value from lock_probe where value like 'transaction%' or value = 'statement' order by value`.execute(
      database.db,
    );
    expect(rows.map((r) => r.value)).toEqual(['statement', 'transaction 1', 'transaction 2']);
  });

  test('a job’s progress reported while another connection writes reaches its row once the lock is free', async () => {
    let releaseLock: (() => void) | null = null;
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const kind: JobKind<Record<string, never>> = {
      kind: 'test.locked-progress',
      label: 'Locked progress',
      idempotent: false,
      async run({ progress }) {
        releaseLock = holdLock();
        progress(40, 'while locked');
        await finished;
        return { message: 'done' };
      },
    };
    const pushed: unknown[] = [];
    const runner = new JobRunner({
      db: database.db,
      queue: new InProcessQueue(),
      clock: () => Date.now(),
      log: { warn: () => undefined, error: () => undefined, info: () => undefined } as never,
      notify: async () => undefined,
      push: async (_user, _target, payload) => void pushed.push(payload),
      timings: { heartbeatMs: 50, staleAfterMs: 10_000, progressEveryMs: 20, pollMs: 20 },
    });
    runner.register(kind);
    await runner.start({ recover: false });
    try {
      const job = await runner.enqueue('test.locked-progress', owner, {});
      for (let i = 0; i < 200 && !releaseLock; i++) await nextTurn();
      expect(releaseLock).not.toBeNull();
      // The owner hears of it at once, lock or no lock.
      for (let i = 0; i < 200 && pushed.length === 0; i++) await nextTurn();
      expect(pushed).toEqual([expect.objectContaining({ id: job.id, progress: 40, text: 'while locked' })]);
      // Several heartbeats and progress retries come and go while the lock is held; none waits for it.
      for (let i = 0; i < 5; i++) await nextTurn();
      const before = await database.db.selectFrom('jobs').select(['progress', 'progress_text']).where('id', '=', job.id).executeTakeFirstOrThrow();
      expect(before).toEqual({ progress: 0, progress_text: null });
      releaseLock!();
      let row = before;
      for (let i = 0; i < 200 && row.progress !== 40; i++) {
        await nextTurn();
        row = await database.db.selectFrom('jobs').select(['progress', 'progress_text']).where('id', '=', job.id).executeTakeFirstOrThrow();
      }
      expect(row).toEqual({ progress: 40, progress_text: 'while locked' });
      finish();
      const done = await runner.waitFor(job.id);
      expect(done.state).toBe('succeeded');
    } finally {
      finish();
      await runner.stop();
    }
  });
});
