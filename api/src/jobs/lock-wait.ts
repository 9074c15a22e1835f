import { SqliteAdapter, sql, type Kysely } from 'kysely';
import { failingFastOnLock } from '../db/database';
import type { Database } from '../db/schema';

type Db = Kysely<Database>;

/** What {@link writeWithoutWaiting} answers when another connection holds SQLite's write lock. */
export const LOCKED = Symbol('locked');

/** Waits between tries of {@link writeWhenFree}: short at first (most transactions are), then capped. */
const RETRY_DELAYS_MS = [5, 10, 20, 40, 80, 160, 250];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

const onSqlite = (db: Db) => db.getExecutor().adapter instanceof SqliteAdapter;

/**
 * Runs a write now, or answers LOCKED at once if a worker thread's transaction holds SQLite's write lock.
 *
 * better-sqlite3 is synchronous: with the connection's busy timeout, a main-thread write that meets a
 * worker's transaction spins in SQLite's busy handler for up to that timeout, and the whole event
 * loop — every request, every timer — stops with it (an import's swap held the lock for seconds, and
 * each progress write stalled the console that long). So the write runs with busy_timeout 0 on the
 * connection held alone for it (Kysely's single SQLite connection, so nothing else runs at 0 meanwhile),
 * and the old timeout is put back. On PostgreSQL row locks wait without blocking anything: it just runs.
 */
export async function writeWithoutWaiting<T>(db: Db, write: (db: Db) => Promise<T>): Promise<T | typeof LOCKED> {
  if (!onSqlite(db)) return write(db);
  return db.connection().execute(async (conn) => {
    const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(conn);
    const timeout = Number(rows[0]?.timeout ?? 0);
    await sql`pragma busy_timeout = 0`.execute(conn);
    try {
      // The main connection would otherwise wait for the lock itself (db/database.ts, LockWaitingConnection).
      return await failingFastOnLock(() => write(conn));
    } catch (error) {
      if (isSqliteBusy(error)) return LOCKED;
      throw error;
    } finally {
      await sql.raw(`pragma busy_timeout = ${Math.max(0, Math.trunc(timeout))}`).execute(conn);
    }
  });
}

/**
 * Runs a write that must happen (a job claimed, finished, queued): tried without waiting, and while the
 * lock is held, tried again after a pause in which the event loop goes on. After `patienceMs` it is run
 * the ordinary way (waiting up to the busy timeout, then failing as any write would).
 */
export async function writeWhenFree<T>(db: Db, write: (db: Db) => Promise<T>, patienceMs = 60_000): Promise<T> {
  const giveUpAt = Date.now() + patienceMs;
  for (let attempt = 0; Date.now() < giveUpAt; attempt += 1) {
    const result = await writeWithoutWaiting(db, write);
    if (result !== LOCKED) return result;
    await sleep(RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)]!);
  }
  return write(db);
}
