import { sql } from 'kysely';
import { runInOperator, scopedTo } from '../src/db/operator-scope';
import { COMMISSIONING_PLAN_TABLE } from '../src/tracking/datasets';
import { listRows, RowWriter, TRACKING_VERSION_KEY, writeStamp } from '../src/tracking/queries';
import { TEST_DATABASES, type TestDatabase } from './support/databases';

const plan = (id: number, supplier: string) => ({
  id,
  localId: `LX${String(id).padStart(4, '0')}`,
  technology: '4G',
  supplier,
  LastUpdate: '2026-01-01T00:00:00Z',
});

describe.each(TEST_DATABASES)('list totals counted once per data version on $name', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await kind.open();
  });
  afterAll(async () => {
    await database.dispose();
  });

  /** Replaces the plan as an import does: rows and their stamp in one transaction. */
  async function importPlan(suppliers: string[], stamp = true): Promise<void> {
    await database.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('tracking_commissioning_plan').execute();
      const writer = new RowWriter(trx, 'tracking_commissioning_plan', ['id', 'localId', 'technology', 'supplier', 'LastUpdate']);
      for (const [i, supplier] of suppliers.entries()) await writer.add(plan(i + 1, supplier));
      await writer.flush();
      if (stamp) await writeStamp(trx, 'tracking.commissioningPlan.importedAt', '2026-01-01T00:00:00Z');
    });
  }
  const dataVersion = async () =>
    (await database.db.selectFrom('app_meta').select('value').where('key', '=', TRACKING_VERSION_KEY).executeTakeFirst())?.value ?? null;
  const nokTotal = async () =>
    (await listRows(database.db, COMMISSIONING_PLAN_TABLE, { page: 1, size: 10, filters: JSON.stringify({ supplier: 'nok' }) })).total;

  it('answers the new total after each stamped write, and the kept one while nothing was written', async () => {
    await importPlan(['Nokia', 'Ericsson', 'Nokia']);
    expect(await nokTotal()).toBe(2);
    const version = await dataVersion();
    await importPlan(['Nokia', 'Nokia', 'Nokia', 'Nokia', 'Ericsson']);
    expect(Number(await dataVersion())).toBe(Number(version) + 1);
    expect(await nokTotal()).toBe(4);
    // Rows changed behind the stamps' back (no writer of the console does so) are not counted again:
    // the total comes from the cache, which is what spares the scan.
    await sql`delete from tracking_commissioning_plan where ${scopedTo('')} and supplier = 'Nokia'`.execute(database.db);
    expect(await nokTotal()).toBe(4);
    expect((await listRows(database.db, COMMISSIONING_PLAN_TABLE, { page: 1, size: 10, filters: JSON.stringify({ supplier: 'nok' }) })).rows).toEqual([]);
    await importPlan(['Nokia']);
    expect(await nokTotal()).toBe(1);
  });

  it("counts a table larger than a slice exactly, other operators' rows between its own left out", async () => {
    const writeRows = async (from: number, to: number, supplier: (i: number) => string) => {
      const writer = new RowWriter(database.db, 'tracking_commissioning_plan', ['id', 'localId', 'technology', 'supplier', 'LastUpdate']);
      for (let i = from; i <= to; i += 1) await writer.add(plan(i, supplier(i)));
      await writer.flush();
    };
    await importPlan([]);
    await runInOperator(2, () => database.db.deleteFrom('tracking_commissioning_plan').execute());
    // Rowid order: 12,000 of this operator, 9,000 of operator 2 (all Nokia), then 11,500 of this operator.
    await writeRows(1, 12_000, (i) => (i % 3 === 0 ? 'Nokia' : 'Ericsson'));
    await runInOperator(2, () => writeRows(1, 9_000, () => 'Nokia'));
    await writeRows(12_001, 23_500, (i) => (i % 3 === 0 ? 'Nokia' : 'Ericsson'));
    await writeStamp(database.db, 'tracking.commissioningPlan.importedAt', '2026-01-02T00:00:00Z');
    expect(await nokTotal()).toBe(7_833);
    expect((await listRows(database.db, COMMISSIONING_PLAN_TABLE, { page: 1, size: 10 })).total).toBe(23_500);
    expect(await runInOperator(2, nokTotal)).toBe(9_000);
    await runInOperator(2, () => database.db.deleteFrom('tracking_commissioning_plan').execute());
  });

  it('counts once for requests that ask for the same total at the same time', async () => {
    await importPlan(['Nokia', 'Ericsson', 'Nokia', 'Nokia']);
    // Every prepared read runs through the database's executeQuery (db/prepared.ts runPrepared).
    const counts = jest.spyOn(database.db, 'executeQuery');
    const countStatements = () => counts.mock.calls.filter(([statement]) => /^\s*select count\(\*\)/i.test((statement as { sql: string }).sql)).length;
    try {
      expect(await Promise.all(Array.from({ length: 20 }, nokTotal))).toEqual(Array(20).fill(3));
      const together = countStatements();
      expect(together).toBeGreaterThan(0);
      await importPlan(['Nokia', 'Ericsson', 'Nokia', 'Nokia']);
      counts.mockClear();
      expect(await nokTotal()).toBe(3);
      // Twenty requests at once cost what one does.
      expect(together).toBe(countStatements());
    } finally {
      counts.mockRestore();
    }
  });

  it('keeps one total per filter', async () => {
    await importPlan(['Nokia', 'Ericsson', 'Ericsson']);
    const eric = await listRows(database.db, COMMISSIONING_PLAN_TABLE, { page: 1, size: 10, filters: JSON.stringify({ supplier: 'eric' }) });
    expect(eric.total).toBe(2);
    expect(await nokTotal()).toBe(1);
    expect((await listRows(database.db, COMMISSIONING_PLAN_TABLE, { page: 1, size: 10 })).total).toBe(3);
  });
});
