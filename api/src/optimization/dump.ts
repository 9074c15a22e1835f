import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/schema';
import type { Cell, CellTech, ExternalCell, ExternalCellKind, Relation, RelationKind } from '../domain/network/model';
import type { NetworkDump } from '../domain/planning';
import type { NetworkCellsTable, NetworkExternalCellsTable, NetworkRelationsTable } from '../network/tables';

/**
 * The part of the stored dump an optimisation run reads: the cells named in the statistics, every
 * relation of the source cells, the cells and external cells those relations reach. Read in chunks,
 * so a statistics file naming thousands of cells stays within every driver's parameter limit.
 */

type Db = Kysely<Database>;
const CHUNK = 500;

const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

function chunks<T>(values: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += CHUNK) out.push(values.slice(i, i + CHUNK));
  return out;
}

function cellOf(row: Selectable<NetworkCellsTable>, altDns: readonly string[]): Cell {
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

/** The dump around the named cells: `sources` with their relations, and whatever those relations and `targets` reach. */
export async function loadDumpAround(db: Db, sources: readonly string[], targets: readonly string[]): Promise<NetworkDump> {
  const cellRows = new Map<string, Selectable<NetworkCellsTable>>();
  const byName = async (names: readonly string[]) => {
    for (const part of chunks([...new Set(names)])) {
      for (const row of await db.selectFrom('network_cells').selectAll().where('name', 'in', part).execute()) cellRows.set(row.dn, row);
    }
  };
  const byDn = async (dns: readonly string[]) => {
    const wanted = [...new Set(dns)].filter((dn) => !cellRows.has(dn));
    for (const part of chunks(wanted)) {
      for (const row of await db.selectFrom('network_cells').selectAll().where('dn', 'in', part).execute()) cellRows.set(row.dn, row);
    }
  };
  await byName(sources);
  const sourceNames = new Set(sources);
  const sourceDns = [...cellRows.values()].filter((c) => sourceNames.has(c.name)).map((c) => c.dn);

  const relationRows: Array<Selectable<NetworkRelationsTable>> = [];
  for (const part of chunks(sourceDns)) {
    relationRows.push(...(await db.selectFrom('network_relations').selectAll().where('source_cell_dn', 'in', part).orderBy('id').execute()));
  }
  await byName(targets);
  await byDn(relationRows.flatMap((r) => (r.target_cell_dn ? [r.target_cell_dn] : [])));

  const externalDns = [...new Set(relationRows.flatMap((r) => (r.target_external_dn ? [r.target_external_dn] : [])))];
  const externals: ExternalCell[] = [];
  for (const part of chunks(externalDns)) {
    externals.push(...(await db.selectFrom('network_external_cells').selectAll().where('dn', 'in', part).execute()).map(externalOf));
  }

  const altDns = new Map<string, string[]>();
  for (const part of chunks([...cellRows.keys()])) {
    for (const row of await db.selectFrom('network_cell_alt_dns').selectAll().where('cell_dn', 'in', part).execute()) {
      altDns.set(row.cell_dn, [...(altDns.get(row.cell_dn) ?? []), row.alt_dn]);
    }
  }
  return {
    cells: [...cellRows.values()].map((row) => cellOf(row, altDns.get(row.dn) ?? [])),
    externalCells: externals,
    relations: relationRows.map(relationOf),
  };
}
