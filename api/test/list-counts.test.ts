import { sql } from 'kysely';
import { scopedTo } from '../src/db/operator-scope';
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

  it('keeps one total per filter', async () => {
    await importPlan(['Nokia', 'Ericsson', 'Ericsson']);
    const eric = await listRows(database.db, COMMISSIONING_PLAN_TABLE, { page: 1, size: 10, filters: JSON.stringify({ supplier: 'eric' }) });
    expect(eric.total).toBe(2);
    expect(await nokTotal()).toBe(1);
    expect((await listRows(database.db, COMMISSIONING_PLAN_TABLE, { page: 1, size: 10 })).total).toBe(3);
  });
});
