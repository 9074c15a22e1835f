import fs from 'node:fs';
import path from 'node:path';
import { runInOperator } from '../src/db/operator-scope';
import { importDataSet } from '../src/tracking';
import { COMMISSIONING_PLAN_TABLE, STAMPS, TRACKER_TABLE } from '../src/tracking/datasets';
import { listRows, readStamp, RowWriter, writeStamp } from '../src/tracking/queries';
import { syncTracker } from '../src/tracking/sync';
import { PLAN_HEADER, planRow, removeTempDirs, tempDir, workbook } from './fixtures/tracking/workbooks';
import { TEST_DATABASES, type TestDatabase } from './support/databases';

/*
 * Issue 42: the tracking data sets, their stamps and the lists' kept totals are per operator. The
 * operators need no row of their own here: operator_id is the scope, not a reference.
 */
const ONE = 1;
const TWO = 2;
const THREE = 3;

afterAll(removeTempDirs);
const dir = tempDir();

describe.each(TEST_DATABASES)('tracking data per operator on $name', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await kind.open();
  });
  afterAll(async () => {
    await database.dispose();
  });

  /** Replaces an operator's plan as an import does: rows and their stamp in one transaction. */
  const importPlanAs = (operator: number, suppliers: readonly string[], stamp: string) =>
    runInOperator(operator, () =>
      database.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('tracking_commissioning_plan').execute();
        const writer = new RowWriter(trx, 'tracking_commissioning_plan', ['id', 'localId', 'supplier', 'LastUpdate']);
        for (const [i, supplier] of suppliers.entries()) await writer.add({ id: i + 1, localId: `OP${operator}-${i + 1}`, supplier, LastUpdate: stamp });
        await writer.flush();
        await writeStamp(trx, STAMPS.commissioningPlan, stamp);
      }),
    );
  const planOf = (operator: number, filters?: Record<string, string>) =>
    runInOperator(operator, () =>
      listRows<{ localId: string }>(database.db, COMMISSIONING_PLAN_TABLE, { size: 100, ...(filters ? { filters: JSON.stringify(filters) } : {}) }),
    );

  it("lists, filtered totals and stamps are each operator's own", async () => {
    await importPlanAs(ONE, ['Nokia', 'Nokia', 'Ericsson'], '2026-01-01T00:00:00Z');
    await importPlanAs(TWO, ['Nokia'], '2026-02-02T00:00:00Z');
    // Same filter, same data version: the total kept for the first operator is not the second's.
    expect((await planOf(ONE, { supplier: 'nok' })).total).toBe(2);
    expect((await planOf(TWO, { supplier: 'nok' })).total).toBe(1);
    expect((await planOf(THREE, { supplier: 'nok' })).total).toBe(0);
    expect((await planOf(ONE, { supplier: 'nok' })).total).toBe(2);
    expect(await planOf(TWO)).toEqual({ rows: [expect.objectContaining({ localId: 'OP2-1' })], total: 1 });
    expect((await planOf(ONE)).rows.map((r) => r.localId)).toEqual(['OP1-1', 'OP1-2', 'OP1-3']);
    expect(await runInOperator(ONE, () => readStamp(database.db, STAMPS.commissioningPlan))).toBe('2026-01-01T00:00:00Z');
    expect(await runInOperator(TWO, () => readStamp(database.db, STAMPS.commissioningPlan))).toBe('2026-02-02T00:00:00Z');
    expect(await runInOperator(THREE, () => readStamp(database.db, STAMPS.commissioningPlan))).toBeNull();
  });

  it("an import and a sync replace the current operator's rows only", async () => {
    await importPlanAs(ONE, ['Nokia', 'Nokia', 'Ericsson'], '2026-01-01T00:00:00Z');
    await importPlanAs(TWO, ['Nokia'], '2026-02-02T00:00:00Z');
    const file = path.join(dir, 'plan.xlsx');
    fs.writeFileSync(file, await workbook(PLAN_HEADER, [planRow(1), planRow(2), planRow(3), planRow(4)]));

    const result = await runInOperator(TWO, () => importDataSet(database.db, 'commissioningPlan', file, new Date('2026-03-03T00:00:00Z')));
    expect(result.rows).toBe(4);
    expect((await planOf(TWO)).rows.map((r) => r.localId)).toEqual(['LX0001', 'LX0002', 'LX0003', 'LX0004']);
    expect((await planOf(ONE)).rows.map((r) => r.localId)).toEqual(['OP1-1', 'OP1-2', 'OP1-3']);
    expect(await runInOperator(ONE, () => readStamp(database.db, STAMPS.commissioningPlan))).toBe('2026-01-01T00:00:00Z');
    expect(await runInOperator(TWO, () => readStamp(database.db, STAMPS.commissioningPlan))).toBe('2026-03-03T00:00:00Z');

    const synced = await runInOperator(TWO, () => syncTracker(database.db));
    expect(synced.sites).toBe(4);
    const trackerOf = (operator: number) => runInOperator(operator, () => listRows(database.db, TRACKER_TABLE, { size: 100 }));
    expect((await trackerOf(TWO)).total).toBe(4);
    expect((await trackerOf(ONE)).total).toBe(0);
    expect(await runInOperator(ONE, () => readStamp(database.db, STAMPS.tracker))).toBeNull();
  });
});
