import type { Kysely } from 'kysely';
import type { WorkOrderStatusRow } from 'contracts';
import type { Database } from '../db/schema';
import { refreshStatistics } from '../db/statistics';
import { buildTracker, computeDelta, type PlanData, type TrackerData, type TrackerSide } from '../domain/tracking';
import { trackerSyncChanges, type TrackerSyncChanges } from '../domain/tracking/sync-changes';
import { COMMISSIONING_PLAN_TABLE, DELTA_TABLE, STAMPS, TRACKER_TABLE, WORK_ORDER_STATUS_TABLE } from './datasets';
import { allRows, RowWriter, writeStamp } from './queries';

export const isoNow = (now: Date) => now.toISOString().replace(/\.\d{3}Z$/, 'Z');

async function collect<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

const readWorkOrders = (db: Kysely<Database>) => collect(allRows<WorkOrderStatusRow>(db, 'tracking_work_orders', WORK_ORDER_STATUS_TABLE.exportFields));

/** Rebuilds the work order delta from the tracker and the WOW as stored now (call inside the transaction that changed either). */
export async function recomputeDelta(db: Kysely<Database>): Promise<number> {
  const tracker = await collect(allRows<TrackerSide>(db, 'tracking_tracker', ['localId', 'currentStatus', 'deliveredDate', 'scheduleStatus', 'lastUpdate']));
  const delta = computeDelta(tracker, await readWorkOrders(db));
  await db.deleteFrom('tracking_wo_delta').execute();
  const writer = new RowWriter(db, 'tracking_wo_delta', DELTA_TABLE.rowFields);
  let id = 0;
  for (const row of delta) await writer.add({ id: ++id, ...row });
  await writer.flush();
  return delta.length;
}

export interface SyncResult {
  sites: number;
  deltaRows: number;
  updatedAt: string;
  /** What the sync changed in the tracker, site by site. */
  changes: TrackerSyncChanges;
}

/**
 * Tracker sync (`Tracker/TrackerUpload`): the tracker rebuilt from the commissioning plan and the WOW
 * (rules in domain/tracking/sync), then the delta, in one transaction; answers what it changed, read
 * against the tracker it replaced.
 */
export async function syncTracker(db: Kysely<Database>, now = new Date()): Promise<SyncResult> {
  const result = await db.transaction().execute(async (trx) => {
    const plan = await collect(allRows<PlanData>(trx, 'tracking_commissioning_plan', COMMISSIONING_PLAN_TABLE.rowFields));
    const before = await collect(allRows<TrackerData>(trx, 'tracking_tracker', TRACKER_TABLE.exportFields));
    const previous = new Map<string, string | null>();
    for (const row of before) if (!previous.has(row.localId)) previous.set(row.localId, row.dateEntry);
    const tracker = buildTracker(plan, await readWorkOrders(trx), previous, now);
    const updatedAt = isoNow(now);
    await trx.deleteFrom('tracking_tracker').execute();
    const writer = new RowWriter(trx, 'tracking_tracker', [...TRACKER_TABLE.rowFields, 'lastUpdate']);
    let id = 0;
    for (const row of tracker) await writer.add({ id: ++id, ...row, lastUpdate: updatedAt });
    await writer.flush();
    const deltaRows = await recomputeDelta(trx);
    await writeStamp(trx, STAMPS.tracker, updatedAt);
    return { sites: tracker.length, deltaRows, updatedAt, changes: trackerSyncChanges(before, tracker) };
  });
  await refreshStatistics(db, ['tracking_tracker', 'tracking_wo_delta']);
  return result;
}
