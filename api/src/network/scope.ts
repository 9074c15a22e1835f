import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/schema';
import type { Cell, CellTech, ExternalCell, ExternalCellKind, Relation, RelationKind } from '../domain/network/model';
import { NetworkIndex, type NetworkDump } from '../domain/planning';
import type { NetworkCellsTable, NetworkExternalCellsTable, NetworkRelationsTable } from './tables';
import { ownSiteFirst } from './queries';

/**
 * Parts of the stored inventory (network_* tables) as the engines read them: only what a run needs (some
 * sites' cells, their relations, and what those relations point at), never the whole dump, so a run on
 * a large network reads a few hundred rows. Validation, RAN-share checks, optimisation and planning all
 * read through here, so the row → model mapping and the chunked IN lists live in one place.
 */

type Db = Kysely<Database>;
type CellRow = Selectable<NetworkCellsTable>;

/** Values per IN list: far below SQLite's and PostgreSQL's bound on parameters. */
const IN_CHUNK = 500;

function chunks<T>(values: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += IN_CHUNK) out.push(values.slice(i, i + IN_CHUNK));
  return out;
}

const num = (value: number | string | null): number | null => (value === null ? null : Number(value));

const byValue = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function cellOf(row: CellRow, altDns: readonly string[] = []): Cell {
  return {
    name: row.name,
    dn: row.dn,
    altDns: [...altDns],
    nodeName: row.node_name,
    siteId: row.site_id,
    tech: row.tech as CellTech,
    band: row.band,
    channel: row.channel,
    pci: row.pci,
    psc: row.psc,
    bsic: row.bsic,
    lac: row.lac,
    tac: row.tac,
    nrTac: row.nr_tac,
    azimuth: row.azimuth,
    cpichPower: row.cpich_power,
    maxTxPower: row.max_tx_power,
    plmns: row.plmns === '' ? [] : row.plmns.split(','),
    rachRootSequence: row.rach_root_sequence,
    ssb: row.ssb,
    cellId: num(row.cell_id),
    localCellId: num(row.local_cell_id),
    ownerId: num(row.owner_id),
    globalId: row.global_id,
  };
}

function externalOf(row: Selectable<NetworkExternalCellsTable>): ExternalCell {
  return {
    dn: row.dn,
    name: row.name,
    kind: row.kind as ExternalCellKind,
    nodeName: row.node_name,
    pci: row.pci,
    psc: row.psc,
    bsic: row.bsic,
    channel: row.channel,
    band: row.band,
    tac: row.tac,
    lac: row.lac,
    plmn: row.plmn,
    ownerId: num(row.owner_id),
    cellId: num(row.cell_id),
    globalId: row.global_id,
  };
}

/** A stored relation as the engines see it; `targetRef` overrides the stored reference (a partner layer's resolved target). */
export function relationOf(row: Selectable<NetworkRelationsTable>, targetRef: string | null = row.target_ref): Relation {
  return {
    dn: row.dn,
    name: row.name,
    nodeName: row.node_name,
    sourceCellDn: row.source_cell_dn,
    kind: row.kind as RelationKind,
    targetRef,
    createdBy: row.created_by,
    isRemoveAllowed: Number(row.is_remove_allowed) === 1,
    isHoAllowed: Number(row.is_ho_allowed) === 1,
  };
}

/** Cell rows whose column is one of the values (duplicates asked once), chunk by chunk, each chunk ordered by name. */
async function cellRowsWhere(db: Db, column: 'dn' | 'name' | 'global_id' | 'site_id', values: readonly string[], tech?: CellTech): Promise<CellRow[]> {
  const rows: CellRow[] = [];
  for (const part of chunks([...new Set(values)])) {
    let query = db.selectFrom('network_cells').selectAll().where(column, 'in', part);
    if (tech) query = query.where('tech', '=', tech);
    rows.push(...(await query.orderBy('name').execute()));
  }
  return rows;
}

/** The rows as cells with their alternative DNs, in the rows' order. */
async function withAltDns(db: Db, rows: readonly CellRow[]): Promise<Cell[]> {
  const alt = new Map<string, string[]>();
  for (const part of chunks(rows.map((r) => r.dn))) {
    for (const row of await db.selectFrom('network_cell_alt_dns').selectAll().where('cell_dn', 'in', part).execute()) {
      alt.set(row.cell_dn, [...(alt.get(row.cell_dn) ?? []), row.alt_dn]);
    }
  }
  return rows.map((r) => cellOf(r, alt.get(r.dn) ?? []));
}

/** Site ids of the list that the inventory does not have, in the list's order. */
export async function unknownSites(db: Db, siteIds: readonly string[]): Promise<string[]> {
  const known = new Set<string>();
  for (const part of chunks([...new Set(siteIds)])) {
    for (const row of await db.selectFrom('network_sites').select('id').where('id', 'in', part).execute()) known.add(row.id);
  }
  return siteIds.filter((id) => !known.has(id));
}

/** How many cells of one technology stand on the sites. */
export async function countCells(db: Db, siteIds: readonly string[], tech: CellTech): Promise<number> {
  let total = 0;
  for (const part of chunks([...new Set(siteIds)])) {
    const row = await db
      .selectFrom('network_cells')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('site_id', 'in', part)
      .where('tech', '=', tech)
      .executeTakeFirstOrThrow();
    total += Number(row.n);
  }
  return total;
}

/** The cells of the sites (one technology or all), sorted by site and name. */
export async function loadSiteCells(db: Db, siteIds: readonly string[], tech?: CellTech): Promise<Cell[]> {
  const rows = await cellRowsWhere(db, 'site_id', siteIds, tech);
  rows.sort((a, b) => byValue(a.site_id, b.site_id) || byValue(a.name, b.name));
  return withAltDns(db, rows);
}

/** The cells with these names (a name the inventory lacks gives nothing). */
export async function loadNamedCells(db: Db, names: readonly string[]): Promise<Cell[]> {
  return withAltDns(db, await cellRowsWhere(db, 'name', names));
}

/**
 * The dump around some source cells: those cells, every relation they hold, the cells and external cells
 * the relations point at, the real cells behind those external cells (same global id), and the cells
 * named in `alsoNamed` (planned targets, so a MISSING row can say whether the target exists at all).
 */
export async function loadRelationScope(db: Db, sources: readonly Cell[], alsoNamed: readonly string[] = []): Promise<NetworkDump> {
  const cells = new Map<string, Cell>(sources.map((c) => [c.dn, c]));
  const relations: Relation[] = [];
  for (const part of chunks(sources.map((c) => c.dn))) {
    for (const row of await db.selectFrom('network_relations').selectAll().where('source_cell_dn', 'in', part).execute()) relations.push(relationOf(row));
  }
  const refs = [...new Set(relations.flatMap((r) => (r.targetRef === null ? [] : [r.targetRef])))];

  const cellRows = await cellRowsWhere(db, 'dn', refs);
  const ownerDns: string[] = [];
  for (const part of chunks(refs)) {
    for (const row of await db.selectFrom('network_cell_alt_dns').select('cell_dn').where('alt_dn', 'in', part).execute()) ownerDns.push(row.cell_dn);
  }
  cellRows.push(...(await cellRowsWhere(db, 'dn', ownerDns)));

  const externals: ExternalCell[] = [];
  for (const part of chunks(refs)) {
    for (const row of await db.selectFrom('network_external_cells').selectAll().where('dn', 'in', part).execute()) externals.push(externalOf(row));
  }
  cellRows.push(
    ...(await cellRowsWhere(
      db,
      'global_id',
      externals.flatMap((e) => (e.globalId === null ? [] : [e.globalId])),
    )),
  );
  cellRows.push(...(await cellRowsWhere(db, 'name', alsoNamed)));

  const seen = new Set(cells.keys());
  const fresh = cellRows.filter((row) => !seen.has(row.dn) && seen.add(row.dn) !== undefined);
  for (const cell of await withAltDns(db, fresh)) cells.set(cell.dn, cell);
  return { cells: [...cells.values()], externalCells: externals, relations };
}

/**
 * The dump around the cells named as sources (every relation they hold and what those relations reach)
 * plus the cells named as targets: what an optimisation run reads of a statistics file.
 */
export async function loadDumpAround(db: Db, sources: readonly string[], targets: readonly string[]): Promise<NetworkDump> {
  return loadRelationScope(db, await loadNamedCells(db, sources), targets);
}

export interface SiteNetwork {
  site: { id: string; name: string } | null;
  /** The site's own cells, by name. */
  cells: Cell[];
  /** The site's relations (sources on the site), as stored. */
  relations: Relation[];
  index: NetworkIndex;
}

/**
 * The part of the dump a site's RAN-share validation and health checks read: the site's cells and their
 * relations, every cell of the sites those relations reach (MORAN looks for the sharing operator's
 * counterpart of a target on the target's site), and the external cells they point at. `site` is null
 * when the inventory does not know it.
 */
export async function loadSiteNetwork(db: Db, siteId: string): Promise<SiteNetwork> {
  const site = (await db.selectFrom('network_sites').select(['id', 'name']).where('id', '=', siteId).orderBy(ownSiteFirst()).executeTakeFirst()) ?? null;
  const siteRows = await cellRowsWhere(db, 'site_id', [siteId]);
  const relationRows: Array<Selectable<NetworkRelationsTable>> = [];
  for (const part of chunks(siteRows.map((c) => c.dn))) {
    relationRows.push(...(await db.selectFrom('network_relations').selectAll().where('source_cell_dn', 'in', part).orderBy('id').execute()));
  }

  // Every cell of the sites the relations reach (through a cell or an external cell's real cell).
  const targetDns = [...new Set(relationRows.map((r) => r.target_cell_dn).filter((d): d is string => d !== null))];
  const targetSites = new Set<string>([siteId]);
  for (const part of chunks(targetDns)) {
    for (const row of await db.selectFrom('network_cells').select('site_id').distinct().where('dn', 'in', part).execute()) targetSites.add(row.site_id);
  }
  const others = [...targetSites].filter((s) => s !== siteId);
  const cells = await withAltDns(db, [...siteRows, ...(await cellRowsWhere(db, 'site_id', others))]);

  const externalDns = [...new Set(relationRows.map((r) => r.target_external_dn).filter((d): d is string => d !== null))];
  const externalCells: ExternalCell[] = [];
  for (const part of chunks(externalDns)) {
    for (const row of await db.selectFrom('network_external_cells').selectAll().where('dn', 'in', part).execute()) externalCells.push(externalOf(row));
  }

  const relations = relationRows.map((row) => relationOf(row));
  const index = new NetworkIndex({ cells, externalCells, relations });
  return { site, cells: cells.filter((c) => c.siteId === siteId), relations, index };
}
