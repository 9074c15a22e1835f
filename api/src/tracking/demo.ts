import type { Kysely } from 'kysely';
import type { WorkOrderStatusRow } from 'contracts';
import { requireOperatorId } from '../db/operator-scope';
import type { Database } from '../db/schema';
import type { CommissioningPlanImportRow } from '../domain/tracking';
import { COMMISSIONING_PLAN_TABLE, STAMPS, WORK_ORDER_STATUS_TABLE } from './datasets';
import { RowWriter, writeStamp } from './queries';
import { isoWeek } from '../domain/tracking';
import { isoNow, syncTracker } from './sync';

export interface DemoTrackingOptions {
  /** PRNG seed (default 7): one per operator, so their plans differ beyond their sites. */
  seed?: number;
  /** BTS area and project of a site by its id's prefix; a site matching none takes the first (default: Lisboa). */
  areas?: ReadonlyArray<{ prefix: string; area: string; project: string }>;
  /** The site only the WOW knows (default LX9999). */
  wowOnlySite?: string;
}

const LISBON_AREAS = [{ prefix: 'LX', area: 'Lisboa', project: 'Rollout Lisboa' }] as const;

export interface DemoTrackingResult {
  planRows: number;
  workOrders: number;
  trackerSites: number;
}

/** A small deterministic generator (mulberry32): the same demo on every first start. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const TECHNOLOGIES = ['4G', '5G', '3G'] as const;
const WORK_TYPES = ['New site', 'Swap', 'Upgrade'] as const;
const OWNERS = ['Ana Costa', 'Rui Martins', 'Sofia Lopes', 'João Pereira'];
const STATUSES = ['Open', 'In progress', 'Waiting access', 'Closed'];

/**
 * Demo tracking data consistent with the current operator's demo network: a commissioning plan of two
 * or three rows per site (one per technology), work orders for most sites, and the tracker synced from
 * both. Written only when the operator's three data sets are empty and its network holds sites.
 */
export async function importDemoTrackingIfEmpty(db: Kysely<Database>, now = new Date(), options: DemoTrackingOptions = {}): Promise<DemoTrackingResult | null> {
  const [plan, tracker, orders] = await Promise.all([
    db.selectFrom('tracking_commissioning_plan').select('id').limit(1).executeTakeFirst(),
    db.selectFrom('tracking_tracker').select('id').limit(1).executeTakeFirst(),
    db.selectFrom('tracking_work_orders').select('id').limit(1).executeTakeFirst(),
  ]);
  if (plan || tracker || orders) return null;
  // The operator's own sites: another operator's site shared with it is not its rollout.
  const sites = await db.selectFrom('network_sites').select(['id', 'name']).where('operator_id', '=', requireOperatorId()).orderBy('id').execute();
  if (sites.length === 0) return null;
  const areas = options.areas ?? LISBON_AREAS;
  const areaOf = (siteId: string) => areas.find((a) => siteId.startsWith(a.prefix)) ?? areas[0]!;

  const next = random(options.seed ?? 7);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const day = 86_400_000;
  const stamp = isoNow(now);
  const at = (offsetDays: number) => isoNow(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 9) + offsetDays * day));

  const planRows: CommissioningPlanImportRow[] = [];
  const workOrders: WorkOrderStatusRow[] = [];
  sites.forEach((site, index) => {
    const techs = TECHNOLOGIES.slice(0, 2 + (index % 2));
    const commOffset = Math.round(next() * 120) - 60;
    for (const technology of techs) {
      const workType = pick(WORK_TYPES);
      planRows.push({
        localId: site.id,
        technology,
        equipCode: `${site.id}-${technology}`,
        equipName: `${site.name} ${technology}`,
        supplier: 'Ericsson',
        workType,
        commDate: at(commOffset),
        week: isoWeek(at(commOffset)),
        mkOwner: pick(OWNERS),
        impOwner: pick(OWNERS),
        btsArea: areaOf(site.id).area,
        btsTech: technology === '5G' ? 'NR' : technology === '4G' ? 'LTE' : 'UMTS',
        project: areaOf(site.id).project,
        comments: null,
        statResponse: null,
        bssTech: null,
        workOrder: `WO-${site.id}-${technology}`,
        localType: index % 5 === 0 ? 'Small cell' : 'Macro',
      });
    }
    // Most sites have work orders; a few are missing from the WOW so the delta has something to say.
    if (index % 9 === 4) return;
    for (const woType of ['Installation', 'Integration']) {
      const status = pick(STATUSES);
      const changed = at(Math.min(0, commOffset) - Math.round(next() * 10));
      workOrders.push({
        siteId: site.id,
        woType,
        woId: `WO-${site.id}-${woType.slice(0, 3).toUpperCase()}`,
        wowStatus: status,
        wowCloseDate: status === 'Closed' ? changed : null,
        wowLastChange: changed,
        wowLastUpdate: stamp,
      });
    }
  });
  // A site that only the WOW knows, as happens when the plan lags behind.
  const wowOnly = options.wowOnlySite ?? 'LX9999';
  workOrders.push({
    siteId: wowOnly,
    woType: 'Installation',
    woId: `WO-${wowOnly}-INS`,
    wowStatus: 'Open',
    wowCloseDate: null,
    wowLastChange: stamp,
    wowLastUpdate: stamp,
  });

  await db.transaction().execute(async (trx) => {
    const planWriter = new RowWriter(trx, 'tracking_commissioning_plan', COMMISSIONING_PLAN_TABLE.rowFields);
    let id = 0;
    for (const row of planRows) await planWriter.add({ ...row, id: ++id, LastUpdate: stamp });
    await planWriter.flush();
    const wowWriter = new RowWriter(trx, 'tracking_work_orders', WORK_ORDER_STATUS_TABLE.rowFields);
    id = 0;
    for (const row of workOrders) await wowWriter.add({ ...row, id: ++id });
    await wowWriter.flush();
    await writeStamp(trx, STAMPS.commissioningPlan, stamp);
    await writeStamp(trx, STAMPS.workOrderStatus, stamp);
  });
  const synced = await syncTracker(db, now);
  return { planRows: planRows.length, workOrders: workOrders.length, trackerSites: synced.sites };
}
