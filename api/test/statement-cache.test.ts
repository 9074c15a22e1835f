import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { openDatabase, StatementCache } from '../src/db/database';

describe('SQLite statement cache', () => {
  let sqlite: SQLite.Database;
  let cache: StatementCache;

  beforeEach(() => {
    sqlite = new SQLite(':memory:');
    sqlite.exec('create table t (id integer primary key, name text)');
    cache = new StatementCache(sqlite, 3);
  });
  afterEach(() => cache.close());

  it('hands out the same prepared statement for the same text', () => {
    const first = cache.prepare('insert into t (name) values (?)');
    expect(cache.prepare('insert into t (name) values (?)')).toBe(first);
    expect(cache.prepare('select * from t')).not.toBe(first);
  });

  it('never hands out a statement that is still being iterated', () => {
    sqlite.exec("insert into t (name) values ('a'), ('b')");
    const reading = cache.prepare('select name from t order by id');
    const rows = reading.iterate([]);
    expect(rows.next().value).toEqual({ name: 'a' });
    const again = cache.prepare('select name from t order by id');
    expect(again).not.toBe(reading);
    expect(again.all([])).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect(rows.next().value).toEqual({ name: 'b' });
    rows.return?.();
    // Done iterating, the kept one is handed out again.
    expect(cache.prepare('select name from t order by id')).toBe(reading);
  });

  it('keeps at most its limit, dropping the least recently used', () => {
    const a = cache.prepare('select 1');
    cache.prepare('select 2');
    cache.prepare('select 3');
    expect(cache.prepare('select 1')).toBe(a); // now the most recent
    cache.prepare('select 4'); // drops `select 2`
    expect(cache.size).toBe(3);
    expect(cache.prepare('select 1')).toBe(a);
    const two = cache.prepare('select 2');
    expect(cache.prepare('select 2')).toBe(two);
    expect(cache.size).toBe(3);
  });

  it('serves Kysely: a stream left early, then the same query streamed and run again, read every row', async () => {
    const handle = openDatabase({ databaseUrl: null, sqliteFile: ':memory:' });
    try {
      await sql`create table n (v integer)`.execute(handle.db);
      // The same insert text five times: one prepared statement, five rows.
      for (let v = 1; v <= 5; v += 1) await sql`insert into n (v) values (${v})`.execute(handle.db);
      const query = () =>
        handle.db
          .selectFrom('n' as never)
          .select('v' as never)
          .orderBy('v' as never);
      for await (const row of query().stream()) {
        expect(row).toEqual({ v: 1 });
        break;
      }
      const streamed: unknown[] = [];
      for await (const row of query().stream()) streamed.push(row);
      expect(streamed).toEqual([1, 2, 3, 4, 5].map((v) => ({ v })));
      expect(await query().execute()).toEqual(streamed);
    } finally {
      await handle.close();
    }
  });
});
