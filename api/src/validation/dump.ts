import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/schema';
import type { Cell, CellTech, ExternalCell, ExternalCellKind, Relation, RelationKind } from '../domain/network/model';
import type { NetworkDump } from '../domain/planning';
import type { NetworkCellsTable, NetworkExternalCellsTable, NetworkRelationsTable } from '../network/tables';

/**
 * The stored inventory (network_* tables) as the validation engines read it: only the part a run
 * needs (the chosen sites' cells, their relations, and what those relations point at), never the whole
 * dump, so a run on a large network reads a few hundred rows.
 */

type Db = Kysely<Database>;

/** Values per IN list: far below SQLite's and PostgreSQL's bound on parameters. */
const IN_CHUNK = 500;

function chunks<T>(values: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += IN_CHUNK) out.push(values.slice(i, i + IN_CHUNK));
  return out;
}

const num = (value: number | string | null): number | null => (value === null ? null : Number(value));

export function cellOf(row: Selectable<NetworkCellsTable>, altDns: readonly string[] = []): Cell {
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

function relationOf(row: Selectable<NetworkRelationsTable>): Relation {
  return {
    dn: row.dn,
    name: row.name,
    nodeName: row.node_name,
    sourceCellDn: row.source_cell_dn,
    kind: row.kind as RelationKind,
    targetRef: row.target_ref,
    createdBy: row.created_by,
    isRemoveAllowed: Number(row.is_remove_allowed) === 1,
    isHoAllowed: Number(row.is_ho_allowed) === 1,
  };
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

async function altDnsOf(db: Db, cellDns: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const part of chunks(cellDns)) {
    for (const row of await db.selectFrom('network_cell_alt_dns').selectAll().where('cell_dn', 'in', part).execute()) {
      out.set(row.cell_dn, [...(out.get(row.cell_dn) ?? []), row.alt_dn]);
    }
  }
  return out;
}

async function withAltDns(db: Db, rows: ReadonlyArray<Selectable<NetworkCellsTable>>): Promise<Cell[]> {
  const alt = await altDnsOf(
    db,
    rows.map((r) => r.dn),
  );
  return rows.map((r) => cellOf(r, alt.get(r.dn) ?? []));
}

/** The cells of the sites (one technology or all), sorted by site and name. */
export async function loadSiteCells(db: Db, siteIds: readonly string[], tech?: CellTech): Promise<Cell[]> {
  const rows: Array<Selectable<NetworkCellsTable>> = [];
  for (const part of chunks([...new Set(siteIds)])) {
    let query = db.selectFrom('network_cells').selectAll().where('site_id', 'in', part);
    if (tech) query = query.where('tech', '=', tech);
    rows.push(...(await query.execute()));
  }
  rows.sort((a, b) => (a.site_id < b.site_id ? -1 : a.site_id > b.site_id ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return withAltDns(db, rows);
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

  const cellRows: Array<Selectable<NetworkCellsTable>> = [];
  const wantCells = async (column: 'dn' | 'name' | 'global_id', values: readonly string[]) => {
    for (const part of chunks([...new Set(values)])) {
      cellRows.push(...(await db.selectFrom('network_cells').selectAll().where(column, 'in', part).execute()));
    }
  };
  await wantCells('dn', refs);
  const ownerDns: string[] = [];
  for (const part of chunks(refs)) {
    for (const row of await db.selectFrom('network_cell_alt_dns').select('cell_dn').where('alt_dn', 'in', part).execute()) ownerDns.push(row.cell_dn);
  }
  await wantCells('dn', ownerDns);

  const externals: ExternalCell[] = [];
  for (const part of chunks(refs)) {
    for (const row of await db.selectFrom('network_external_cells').selectAll().where('dn', 'in', part).execute()) externals.push(externalOf(row));
  }
  await wantCells(
    'global_id',
    externals.flatMap((e) => (e.globalId === null ? [] : [e.globalId])),
  );
  await wantCells('name', alsoNamed);

  const seen = new Set(cells.keys());
  const fresh = cellRows.filter((row) => !seen.has(row.dn) && seen.add(row.dn) !== undefined);
  for (const cell of await withAltDns(db, fresh)) cells.set(cell.dn, cell);
  return { cells: [...cells.values()], externalCells: externals, relations };
}
