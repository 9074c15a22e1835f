import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/schema';
import type { Cell, CellTech, ExternalCell, ExternalCellKind, Relation, RelationKind } from '../domain/network/model';
import { NetworkIndex } from '../domain/planning';
import type { NetworkCellsTable, NetworkExternalCellsTable, NetworkRelationsTable } from '../network/tables';

/**
 * The part of the stored dump a site's RAN-share validation and health checks read: the site's cells
 * and their relations, every cell of the sites those relations reach (MORAN looks for the sharing
 * operator's counterpart of a target on the target's site), and the external cells they point at.
 * Read in a few queries, so a check of one site never loads the whole network.
 */

type Db = Kysely<Database>;

export interface SiteNetwork {
  site: { id: string; name: string } | null;
  /** The site's own cells, by name. */
  cells: Cell[];
  /** The site's relations (sources on the site), as stored. */
  relations: Relation[];
  index: NetworkIndex;
}

const num = (v: number | string | null): number | null => (v === null ? null : Number(v));
/** IN lists stay well below SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 500;

function chunks<T>(values: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += CHUNK) out.push(values.slice(i, i + CHUNK));
  return out;
}

export function cellOfRow(row: Selectable<NetworkCellsTable>, altDns: readonly string[] = []): Cell {
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

function externalOfRow(row: Selectable<NetworkExternalCellsTable>): ExternalCell {
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

function relationOfRow(row: Selectable<NetworkRelationsTable>): Relation {
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

/** The site and the dump around it; `site` null when the inventory does not know it. */
export async function loadSiteNetwork(db: Db, siteId: string): Promise<SiteNetwork> {
  const site = (await db.selectFrom('network_sites').select(['id', 'name']).where('id', '=', siteId).executeTakeFirst()) ?? null;
  const siteRows = await db.selectFrom('network_cells').selectAll().where('site_id', '=', siteId).orderBy('name').execute();
  const sourceDns = siteRows.map((c) => c.dn);
  const relationRows: Array<Selectable<NetworkRelationsTable>> = [];
  for (const part of chunks(sourceDns)) {
    relationRows.push(...(await db.selectFrom('network_relations').selectAll().where('source_cell_dn', 'in', part).orderBy('id').execute()));
  }

  // Every cell of the sites the relations reach (through a cell or an external cell's real cell).
  const targetDns = [...new Set(relationRows.map((r) => r.target_cell_dn).filter((d): d is string => d !== null))];
  const targetSites = new Set<string>([siteId]);
  for (const part of chunks(targetDns)) {
    for (const row of await db.selectFrom('network_cells').select('site_id').distinct().where('dn', 'in', part).execute()) targetSites.add(row.site_id);
  }
  const cellRows = [...siteRows];
  const others = [...targetSites].filter((s) => s !== siteId);
  for (const part of chunks(others)) {
    cellRows.push(...(await db.selectFrom('network_cells').selectAll().where('site_id', 'in', part).orderBy('name').execute()));
  }

  const altDns = new Map<string, string[]>();
  for (const part of chunks(cellRows.map((c) => c.dn))) {
    for (const row of await db.selectFrom('network_cell_alt_dns').selectAll().where('cell_dn', 'in', part).execute()) {
      altDns.set(row.cell_dn, [...(altDns.get(row.cell_dn) ?? []), row.alt_dn]);
    }
  }

  const externalDns = [...new Set(relationRows.map((r) => r.target_external_dn).filter((d): d is string => d !== null))];
  const externalRows: Array<Selectable<NetworkExternalCellsTable>> = [];
  for (const part of chunks(externalDns)) {
    externalRows.push(...(await db.selectFrom('network_external_cells').selectAll().where('dn', 'in', part).execute()));
  }

  const cells = cellRows.map((row) => cellOfRow(row, altDns.get(row.dn) ?? []));
  const relations = relationRows.map(relationOfRow);
  const index = new NetworkIndex({ cells, externalCells: externalRows.map(externalOfRow), relations });
  return { site, cells: cells.filter((c) => c.siteId === siteId), relations, index };
}
