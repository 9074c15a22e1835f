import type { CommissioningPlanRow, ScheduleStatus, TrackerRow, WorkOrderStatusRow } from 'contracts';
import { daysBetween, isoWeek } from './values';

/**
 * Tracker sync (docs/engines/tracking.md#rules-applied), pure: the tracker is rebuilt from the commissioning plan and the work
 * order status (WOW), one row per site (localId).
 *
 * - The plan row that speaks for a site is its latest planned one (latest commDate; then the last in the file).
 * - dateEntry: kept from the previous tracker for a site already there; else the plan row's LastUpdate
 *   (when the plan brought it in); else now. dayCount = whole days since dateEntry; week = ISO week of commDate.
 * - currentStatus: the status of the site's latest work order (by last change, then last update);
 *   null when the site has none.
 * - deliveredDate: when every work order of the site is closed, the latest close date.
 * - scheduleStatus: Done when delivered; Delayed when commDate has passed; On time otherwise.
 */

export type TrackerData = Omit<TrackerRow, 'id'>;
export type PlanData = Omit<CommissioningPlanRow, 'id'> & { id?: number };

/** Work order statuses that mean closed, besides a close date being set. */
const CLOSED_STATUSES = new Set(['closed', 'done', 'complete', 'completed', 'delivered', 'finished', 'cancelled', 'canceled']);

export function isClosed(wo: Pick<WorkOrderStatusRow, 'wowStatus' | 'wowCloseDate'>): boolean {
  return wo.wowCloseDate !== null || CLOSED_STATUSES.has(wo.wowStatus.trim().toLowerCase());
}

const when = (wo: WorkOrderStatusRow) => wo.wowLastChange ?? wo.wowLastUpdate ?? wo.wowCloseDate ?? '';

/** The latest of a group of work orders: last change, then last update, then the later in the file. */
export function latestWorkOrder(orders: readonly WorkOrderStatusRow[]): WorkOrderStatusRow | null {
  let latest: WorkOrderStatusRow | null = null;
  for (const wo of orders) if (latest === null || when(wo) >= when(latest)) latest = wo;
  return latest;
}

export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

export function scheduleStatusOf(commDate: string | null, deliveredDate: string | null, now: Date): ScheduleStatus {
  if (deliveredDate !== null) return 'Done';
  if (commDate !== null && new Date(commDate).getTime() < now.getTime()) return 'Delayed';
  return 'On time';
}

export function buildTracker(
  plan: readonly PlanData[],
  workOrders: readonly WorkOrderStatusRow[],
  previousEntries: ReadonlyMap<string, string | null>,
  now: Date,
): TrackerData[] {
  const nowIso = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const bySite = new Map<string, PlanData>();
  for (const row of plan) {
    const current = bySite.get(row.localId);
    // >=: of equal dates the later row in the file wins; a dated row beats an undated one.
    if (!current || (row.commDate ?? '') >= (current.commDate ?? '')) bySite.set(row.localId, row);
  }
  const ordersBySite = groupBy(workOrders, (wo) => wo.siteId);
  const tracker: TrackerData[] = [];
  for (const [localId, row] of bySite) {
    const orders = ordersBySite.get(localId) ?? [];
    const latest = latestWorkOrder(orders);
    let deliveredDate: string | null = null;
    if (orders.length > 0 && orders.every(isClosed)) {
      deliveredDate = orders.map((wo) => wo.wowCloseDate ?? wo.wowLastChange ?? wo.wowLastUpdate ?? nowIso).reduce((a, b) => (b > a ? b : a));
    }
    const dateEntry = previousEntries.get(localId) ?? row.LastUpdate ?? nowIso;
    tracker.push({
      localId,
      equipName: row.equipName,
      supplier: row.supplier,
      commDate: row.commDate,
      mkOwner: row.mkOwner,
      impOwner: row.impOwner,
      project: row.project,
      comments: row.comments,
      bssTech: row.bssTech,
      localType: row.localType,
      scheduleStatus: scheduleStatusOf(row.commDate, deliveredDate, now),
      dateEntry,
      week: row.commDate ? isoWeek(row.commDate) : null,
      dayCount: daysBetween(dateEntry, now),
      currentStatus: latest?.wowStatus ?? null,
      deliveredDate,
    });
  }
  return tracker;
}
