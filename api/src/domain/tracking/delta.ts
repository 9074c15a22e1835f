import type { DeltaAction, WorkOrderDeltaRow, WorkOrderStatusRow } from 'contracts';
import { groupBy, isClosed, latestWorkOrder } from './sync';

/**
 * Work order delta (docs/engines/tracking.md#rules-applied), pure: per site and work order type, the tracker's status against the
 * latest work order of that type in the WOW, one row for each difference:
 * - 'Missing in tracker': the WOW has work orders for a site the tracker does not hold;
 * - 'Missing in WOW': the tracker holds a site the WOW has no work order for;
 * - 'Close WO': the tracker says the site is delivered (deliveredDate, or scheduleStatus Done) while the
 *   work order is still open;
 * - 'Update tracker': the statuses differ (compared without case and surrounding spaces).
 * Rows come sorted by site, then type.
 */

export interface TrackerSide {
  localId: string;
  currentStatus: string | null;
  deliveredDate: string | null;
  scheduleStatus: string | null;
  /** When the tracker row was last written. */
  lastUpdate: string | null;
}

export type DeltaData = Omit<WorkOrderDeltaRow, 'id'>;

const norm = (text: string | null) => (text ?? '').trim().replace(/\s+/g, ' ').toLowerCase();

export function computeDelta(tracker: readonly TrackerSide[], workOrders: readonly WorkOrderStatusRow[]): DeltaData[] {
  const trackerBySite = new Map<string, TrackerSide>();
  // The first row of a site speaks for it (an imported tracker may repeat a site).
  for (const row of tracker) if (!trackerBySite.has(row.localId)) trackerBySite.set(row.localId, row);
  const groups = groupBy(workOrders, (wo) => JSON.stringify([wo.siteId, wo.woType]));
  const sitesInWow = new Set(workOrders.map((wo) => wo.siteId));
  const rows: DeltaData[] = [];

  const push = (wo: WorkOrderStatusRow | null, site: TrackerSide | null, action: DeltaAction) =>
    rows.push({
      siteId: wo?.siteId ?? site?.localId ?? '',
      woType: wo?.woType ?? null,
      woId: wo?.woId ?? null,
      trackerStatus: site?.currentStatus ?? null,
      wowStatus: wo?.wowStatus ?? null,
      wowCloseDate: wo?.wowCloseDate ?? null,
      wowLastChange: wo?.wowLastChange ?? null,
      trackerLastUpdate: site?.lastUpdate ?? null,
      wowLastUpdate: wo?.wowLastUpdate ?? null,
      action,
    });

  for (const orders of groups.values()) {
    const wo = latestWorkOrder(orders)!;
    const site = trackerBySite.get(wo.siteId) ?? null;
    if (!site) push(wo, null, 'Missing in tracker');
    else if ((site.deliveredDate !== null || norm(site.scheduleStatus) === 'done') && !isClosed(wo)) push(wo, site, 'Close WO');
    else if (norm(site.currentStatus) !== norm(wo.wowStatus)) push(wo, site, 'Update tracker');
  }
  for (const site of trackerBySite.values()) if (!sitesInWow.has(site.localId)) push(null, site, 'Missing in WOW');

  return rows.sort((a, b) => compare(a.siteId, b.siteId) || compare(a.woType ?? '', b.woType ?? ''));
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
