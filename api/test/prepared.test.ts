import { sql } from 'kysely';
import { OperatorScopeError, runInOperator, runUnscoped, scopedTo, setOperatorOutsideScopesForTests } from '../src/db/operator-scope';
import { PreparedReads, runPrepared, slot } from '../src/db/prepared';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { TEST_OPERATOR_ID } from './support/operator';

/*
 * Issue 44: read statements compiled once per shape and run with each call's values (db/prepared.ts).
 * What must hold: a prepared statement still reads only the caller's operator (the scope wrote it with a
 * sentinel that each run replaces), work outside a scope is refused as before, and values never leak
 * from one run into the next.
 */
const ONE = 1;
const TWO = 2;

describe.each(TEST_DATABASES)('prepared reads on $name', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await kind.open();
    for (const [operator, names] of [
      [ONE, ['LX0001', 'LX0002', 'LX0003']],
      [TWO, ['LX0001', 'PO0001']],
    ] as const) {
      await runInOperator(operator, () =>
        database.db
          .insertInto('network_sites')
          .values(names.map((id) => ({ id, name: `${id} of ${operator}` })) as never)
          .execute(),
      );
    }
  });
  afterAll(async () => {
    await database.dispose();
  });

  /** Sites whose id contains slot `needle`, `limit` of them; shape 'raw' reads through raw SQL and scopedTo. */
  const sites = new PreparedReads((db, shape) => ({
    rows:
      shape === 'raw'
        ? sql`select s.name from network_sites s where ${scopedTo('s')} and s.id like ${slot('needle')} order by s.id limit ${slot('limit')}`
        : db
            .selectFrom('network_sites')
            .select('name')
            .where('id', 'like', slot('needle') as never)
            .orderBy('id')
            .limit(slot('limit') as never),
  }));
  const names = async (shape: string, needle: string, limit = 10) =>
    (await runPrepared<{ name: string }>(database.db, sites.statements(database.db, shape, { needle, limit }).rows)).rows.map((r) => r.name);

  it.each(['builder', 'raw'])("a %s statement compiled once reads each caller's operator", async (shape) => {
    expect(await runInOperator(ONE, () => names(shape, 'LX%'))).toEqual(['LX0001 of 1', 'LX0002 of 1', 'LX0003 of 1']);
    // Same shape, other operator, other values: nothing of the first run is left in the statement.
    expect(await runInOperator(TWO, () => names(shape, '%0001', 5))).toEqual(['LX0001 of 2', 'PO0001 of 2']);
    expect(await runInOperator(ONE, () => names(shape, 'LX%', 1))).toEqual(['LX0001 of 1']);
  });

  it('a user without a current operator reads nothing; unscoped system work reads every operator', async () => {
    expect(await runInOperator(null, () => names('builder', '%'))).toEqual([]);
    expect(await runUnscoped(() => names('builder', 'LX0001'))).toEqual(expect.arrayContaining(['LX0001 of 1', 'LX0001 of 2']));
  });

  it('tenant data outside any operator scope is refused as an unprepared statement is', async () => {
    await runInOperator(ONE, () => names('builder', '%'));
    // The suites' own reads run as the test operator outside scopes (support/operator.ts): not here.
    setOperatorOutsideScopesForTests(null);
    try {
      expect(() => sites.statements(database.db, 'builder', { needle: '%', limit: 1 })).toThrow(OperatorScopeError);
    } finally {
      setOperatorOutsideScopesForTests(TEST_OPERATOR_ID);
    }
  });

  it('a statement on other tables runs before the operator is known (the session read)', async () => {
    await database.db.insertInto('app_meta').values({ key: 'prepared.test', value: 'read' }).execute();
    const meta = new PreparedReads((db) => ({
      value: db
        .selectFrom('app_meta')
        .select('value')
        .where('key', '=', slot('key') as never),
    }));
    setOperatorOutsideScopesForTests(null);
    try {
      const { value } = meta.statements(database.db, '', { key: 'prepared.test' });
      expect((await runPrepared<{ value: string }>(database.db, value)).rows).toEqual([{ value: 'read' }]);
    } finally {
      setOperatorOutsideScopesForTests(TEST_OPERATOR_ID);
    }
  });

  it('refuses writes and a run missing one of its values', () => {
    const writes = new PreparedReads((db) => ({ write: db.deleteFrom('network_sites').where('id', '=', slot('id') as never) }));
    expect(() => runInOperator(ONE, () => writes.statements(database.db, '', { id: 'LX0001' }))).toThrow(/reads only/);
    expect(() => runInOperator(ONE, () => sites.statements(database.db, 'builder', { needle: '%' }))).toThrow(/no value for limit/);
  });
});
