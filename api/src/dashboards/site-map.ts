import { sql, type Kysely } from 'kysely';
import { MAP_TECHNOLOGIES, type MapStatus, type MapTechnology, type SiteMapResponse, type SiteMapSite, type SiteSharing } from 'contracts';
import type { Database } from '../db/schema';
import { onePerSiteId } from '../network/queries';
import { loadSharingMarks, NOT_SHARED } from '../network/shares';

/**
 * The site map (`Monitoring/GetSiteMap`): every site of the network inventory with coordinates, its
 * technologies (from its cells), the worst status of its nodes' latest logs (the Overall Site Summary's
 * reading: NOK beats OK beats N/A, an unreachable node is NOK), its tracker row and whom it is shared
 * with (RAN sharing). Five queries, each one pass over its table, whatever the number of sites: no
 * query per site.
 */

type Db = Kysely<Database>;

/** A site's statuses as the monitoring tables rank them: 2 NOK, 1 OK, 0 N/A. */
export interface SiteStatusRanks {
  alarm: number;
  radio: number;
  core: number;
  perf: number;
  unreachable: number;
}

const statusOfRank = (rank: number): string => (rank >= 2 ? 'NOK' : rank === 1 ? 'OK' : 'N/A');

/** The overall colour: NOK when any part is NOK or a node is unreachable, OK when some part is OK, else no data. */
export function overallOf(ranks: SiteStatusRanks | undefined): MapStatus {
  if (!ranks) return 'NO_DATA';
  const parts = [ranks.alarm, ranks.radio, ranks.core, ranks.perf];
  if (ranks.unreachable > 0 || parts.some((r) => r >= 2)) return 'NOK';
  return parts.some((r) => r === 1) ? 'OK' : 'NO_DATA';
}

/** Cell technologies as the map's layers name them; NB-IoT rides on LTE carriers and has no layer of its own. */
export function technologiesOf(techs: Iterable<string>): MapTechnology[] {
  const found = new Set(techs);
  return MAP_TECHNOLOGIES.filter((t) => found.has(t));
}

export interface SiteMapInputs {
  sites: ReadonlyArray<{ id: string; name: string; lat: number | null; lon: number | null }>;
  techs: ReadonlyArray<{ siteId: string; tech: string }>;
  ranks: ReadonlyMap<string, SiteStatusRanks>;
  /** Site id → the first tracker row naming it. */
  trackerIds: ReadonlyMap<string, number>;
  /** Site id → whom it is shared with; a site not in it is not shared. */
  sharing?: ReadonlyMap<string, SiteSharing>;
}

const hasCoordinates = (lat: number | null, lon: number | null): boolean =>
  lat !== null && lon !== null && Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 && !(lat === 0 && lon === 0);

export function buildSiteMap(inputs: SiteMapInputs, tileUrl: string): SiteMapResponse {
  const techsBySite = new Map<string, string[]>();
  for (const { siteId, tech } of inputs.techs) {
    const list = techsBySite.get(siteId);
    if (list) list.push(tech);
    else techsBySite.set(siteId, [tech]);
  }
  const sites: SiteMapSite[] = [];
  let withoutCoordinates = 0;
  for (const site of inputs.sites) {
    const lat = site.lat === null ? null : Number(site.lat);
    const lon = site.lon === null ? null : Number(site.lon);
    if (!hasCoordinates(lat, lon)) {
      withoutCoordinates += 1;
      continue;
    }
    const ranks = inputs.ranks.get(site.id);
    sites.push({
      id: site.id,
      name: site.name,
      lat: lat!,
      lon: lon!,
      technologies: technologiesOf(techsBySite.get(site.id) ?? []),
      status: overallOf(ranks),
      alarmStatus: ranks ? statusOfRank(ranks.alarm) : null,
      radioStatus: ranks ? statusOfRank(ranks.radio) : null,
      coreStatus: ranks ? statusOfRank(ranks.core) : null,
      trackerId: inputs.trackerIds.get(site.id) ?? null,
      ...(inputs.sharing?.get(site.id) ?? NOT_SHARED),
    });
  }
  return { sites, withoutCoordinates, tileUrl };
}

const rank = (column: string) => sql<number>`max(case when ${sql.ref(column)} = 'NOK' then 2 when ${sql.ref(column)} = 'OK' then 1 else 0 end)`;

export async function loadSiteMap(db: Db, tileUrl: string): Promise<SiteMapResponse> {
  const [sites, techs, statuses, tracker, sharing] = await Promise.all([
    db.selectFrom('network_sites').select(['id', 'name', 'lat', 'lon', 'operator_id']).orderBy('id').execute(),
    db.selectFrom('network_cells').select(['site_id as siteId', 'tech']).distinct().execute(),
    db
      .selectFrom('monitoring_nodes as n')
      .leftJoin('monitoring_performance as p', 'p.node_name', 'n.node_name')
      .select([
        'n.site_id as siteId',
        rank('n.alarm_status').as('alarm'),
        rank('n.radio_status').as('radio'),
        rank('n.core_status').as('core'),
        rank('p.status').as('perf'),
        sql<number>`max(n.unreachable)`.as('unreachable'),
      ])
      .where('n.site_id', 'is not', null)
      .groupBy('n.site_id')
      .execute(),
    db
      .selectFrom('tracking_tracker')
      .select(['local_id as siteId', (eb) => eb.fn.min('id').as('id')])
      .groupBy('local_id')
      .execute(),
    loadSharingMarks(db),
  ]);
  const ranks = new Map<string, SiteStatusRanks>();
  for (const s of statuses) {
    ranks.set(s.siteId!, { alarm: Number(s.alarm), radio: Number(s.radio), core: Number(s.core), perf: Number(s.perf), unreachable: Number(s.unreachable) });
  }
  return buildSiteMap({ sites: onePerSiteId(sites), techs, ranks, trackerIds: new Map(tracker.map((t) => [t.siteId, Number(t.id)])), sharing }, tileUrl);
}
