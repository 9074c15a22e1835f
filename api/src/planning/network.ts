import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Cell, CellTech, Site } from '../domain/network/model';
import { boundingBox, type PlacedCell } from '../domain/planning';
import { ownSiteFirst } from '../network/queries';
import { cellOf } from '../network/scope';

/**
 * What a parameter planning reads of the stored network: the site, all its cells, and the LTE and NR
 * cells around it (with their sites' positions) plus the defined neighbour lists of those cells, for
 * the PCI collision / confusion and PRACH rules of the engine.
 */

type Db = Kysely<Database>;

/**
 * Radius of the surroundings read, km. The engine looks at most max(reuse 5 km, 2 × neighbour 2 km)
 * around the site (pci.ts DEFAULTS) and PRACH at 2 km; the margin keeps a wider option cheap to add.
 */
export const SURROUNDINGS_KM = 10;

/** The technologies the planner reads around the site (NR for NR PCIs and PRACH, LTE for anchor PCIs). */
const PLANNED_TECHS = ['4G', '5G'] as const;

export interface PlanningSurroundings {
  site: Site;
  siteCells: Cell[];
  network: PlacedCell[];
  definedNeighbours: Map<string, string[]>;
}

/** The site only (null when the dump has no such site). */
export async function findSite(db: Db, siteId: string): Promise<Site | null> {
  const row = await db.selectFrom('network_sites').select(['id', 'name', 'lat', 'lon']).where('id', '=', siteId).orderBy(ownSiteFirst()).executeTakeFirst();
  return row ? { id: row.id, name: row.name, lat: row.lat, lon: row.lon } : null;
}

/** The site, its cells and the planned technologies' cells within SURROUNDINGS_KM; null when the site is unknown. */
export async function loadPlanningSurroundings(db: Db, siteId: string, radiusKm = SURROUNDINGS_KM): Promise<PlanningSurroundings | null> {
  const site = await findSite(db, siteId);
  if (!site) return null;
  const siteCells = (await db.selectFrom('network_cells').selectAll().where('site_id', '=', siteId).orderBy('name').execute()).map((row) => cellOf(row));
  if (site.lat === null || site.lon === null) return { site, siteCells, network: [], definedNeighbours: new Map() };

  const box = boundingBox({ lat: site.lat, lon: site.lon }, radiusKm);
  const rows = await db
    .selectFrom('network_cells as c')
    // The cell's own site: a partner's shared site of the same id must not add a row per cell.
    .innerJoin('network_sites as s', (join) => join.onRef('s.id', '=', 'c.site_id').onRef('s.operator_id', '=', 'c.operator_id'))
    .select(['c.name', 'c.site_id', 'c.tech', 'c.azimuth', 'c.channel', 'c.pci', 'c.rach_root_sequence', 's.lat', 's.lon'])
    .where('c.tech', 'in', PLANNED_TECHS)
    .where('s.lat', '>=', box.minLat)
    .where('s.lat', '<=', box.maxLat)
    .where('s.lon', '>=', box.minLon)
    .where('s.lon', '<=', box.maxLon)
    .orderBy('c.name')
    .execute();
  const network: PlacedCell[] = [];
  for (const r of rows) {
    if (r.lat === null || r.lon === null) continue;
    network.push({
      name: r.name,
      siteId: r.site_id,
      tech: r.tech as CellTech,
      lat: r.lat,
      lon: r.lon,
      azimuth: r.azimuth,
      channel: r.channel,
      pci: r.pci,
      rachRootSequence: r.rach_root_sequence,
    });
  }

  // Defined neighbours of the cells around (same technology: LTE→LTE, NR→NR), by cell name.
  const relations = await db
    .selectFrom('network_relations as r')
    .innerJoin('network_cells as src', 'src.dn', 'r.source_cell_dn')
    .innerJoin('network_sites as s', (join) => join.onRef('s.id', '=', 'src.site_id').onRef('s.operator_id', '=', 'src.operator_id'))
    .innerJoin('network_cells as tgt', 'tgt.dn', 'r.target_cell_dn')
    .select(['src.name as source', 'tgt.name as target'])
    .where('src.tech', 'in', PLANNED_TECHS)
    .whereRef('tgt.tech', '=', 'src.tech')
    .where('s.lat', '>=', box.minLat)
    .where('s.lat', '<=', box.maxLat)
    .where('s.lon', '>=', box.minLon)
    .where('s.lon', '<=', box.maxLon)
    .execute();
  const definedNeighbours = new Map<string, string[]>();
  for (const r of relations) {
    const list = definedNeighbours.get(r.source);
    if (list) list.push(r.target);
    else definedNeighbours.set(r.source, [r.target]);
  }
  for (const list of definedNeighbours.values()) list.sort();
  return { site, siteCells, network, definedNeighbours };
}

export interface ClusterSurroundings {
  sites: Array<{ site: Site; siteCells: Cell[] }>;
  /** Inventory cells around every site of the run, each once. */
  network: PlacedCell[];
  definedNeighbours: Map<string, string[]>;
  /** Asked-for site ids the inventory does not have. */
  missing: string[];
}

/** The surroundings of each site of a run, merged: a cell near two of the sites is read once. */
export async function loadClusterSurroundings(db: Db, siteIds: readonly string[], radiusKm = SURROUNDINGS_KM): Promise<ClusterSurroundings> {
  const out: ClusterSurroundings = { sites: [], network: [], definedNeighbours: new Map(), missing: [] };
  const seen = new Set<string>();
  for (const siteId of siteIds) {
    const s = await loadPlanningSurroundings(db, siteId, radiusKm);
    if (!s) {
      out.missing.push(siteId);
      continue;
    }
    out.sites.push({ site: s.site, siteCells: s.siteCells });
    for (const c of s.network) {
      if (seen.has(c.name)) continue;
      seen.add(c.name);
      out.network.push(c);
    }
    for (const [source, targets] of s.definedNeighbours) if (!out.definedNeighbours.has(source)) out.definedNeighbours.set(source, targets);
  }
  return out;
}
