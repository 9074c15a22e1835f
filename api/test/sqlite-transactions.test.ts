import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../src/db/database';

/**
 * On SQLite a worker thread and the main thread write through two connections to one WAL file. A
 * transaction must hold the write lock from its BEGIN: with a deferred BEGIN, a commit by the other
 * connection between the transaction's first read and its first write fails that write at once
 * ("database is locked"), whatever the busy timeout — which failed tracker syncs under load.
 */
describe('SQLite transactions', () => {
  let dir: string;
  let handle: DatabaseHandle;
  let other: SQLite.Database;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-sqlite-tx-'));
    handle = openDatabase({ databaseUrl: null, sqliteFile: path.join(dir, 'db.sqlite') });
    await sql`create table counters (name text primary key, value integer not null)`.execute(handle.db);
    await sql`insert into counters values ('a', 0)`.execute(handle.db);
    other = new SQLite(path.join(dir, 'db.sqlite'));
    // The other connection does not wait: it shows who holds the lock right now.
    other.pragma('busy_timeout = 0');
  });
  afterAll(async () => {
    other.close();
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('hold the write lock from BEGIN, so a read-then-write transaction is never refused its write', async () => {
    let otherWrite: string | null = null;
    await handle.db.transaction().execute(async (trx) => {
      await sql`select value from counters where name = 'a'`.execute(trx);
      try {
        other.prepare(`update counters set value = 100 where name = 'a'`).run();
        otherWrite = 'committed';
      } catch (error) {
        otherWrite = (error as Error).message;
      }
      await sql`update counters set value = value + 1 where name = 'a'`.execute(trx);
    });
    expect(otherWrite).toBe('database is locked');
    expect(other.prepare(`select value from counters where name = 'a'`).get()).toEqual({ value: 1 });
  });
});
