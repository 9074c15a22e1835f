import type { TenantColumn } from '../db/operator-scope';
import type { ColumnType, Generated } from 'kysely';

/**
 * Row types of the network inventory tables (migration 0003). The data set is replaced whole by each
 * import; `network_imports` keeps the history. Flags are 0/1; points in time are ISO-8601 UTC text.
 */

/** bigint columns: pg answers them as text, SQLite as numbers; read them through `Number()`. */
type BigIntColumn = ColumnType<number | string | null, number | null, number | null>;

export interface NetworkSitesTable {
  /** The operator the row belongs to (docs/tenancy.md): filled in and filtered by the operator scope. */
  operator_id: TenantColumn;
  id: string;
  name: string;
  lat: number | null;
  lon: number | null;
}

export interface NetworkNodesTable {
  /** The operator the row belongs to (docs/tenancy.md): filled in and filtered by the operator scope. */
  operator_id: TenantColumn;
  name: string;
  dn: string;
  /** Null for controllers (RNC, BSC), whose cells belong to many sites. */
  site_id: string | null;
  technology: string | null;
  type: string | null;
}

export interface NetworkCellsTable {
  /** The operator the row belongs to (docs/tenancy.md): filled in and filtered by the operator scope. */
  operator_id: TenantColumn;
  dn: string;
  name: string;
  node_name: string;
  site_id: string;
  /** 2G, 3G, 4G, 5G or NB-IoT. */
  tech: string;
  band: string | null;
  channel: number | null;
  pci: number | null;
  psc: number | null;
  bsic: number | null;
  lac: number | null;
  tac: number | null;
  nr_tac: number | null;
  azimuth: number | null;
  /** 0.1 dBm. */
  cpich_power: number | null;
  /** 0.1 dBm. */
  max_tx_power: number | null;
  /** Served PLMNs `mcc-mnc`, comma-joined; '' when the dump names none. */
  plmns: string;
  rach_root_sequence: number | null;
  ssb: number | null;
  cell_id: BigIntColumn;
  local_cell_id: BigIntColumn;
  owner_id: BigIntColumn;
  global_id: string | null;
}

/** Other DNs of a cell (the NRCellDU of a merged NR cell): relations may point at either. */
export interface NetworkCellAltDnsTable {
  /** The operator the row belongs to (docs/tenancy.md): filled in and filtered by the operator scope. */
  operator_id: TenantColumn;
  alt_dn: string;
  cell_dn: string;
}

export interface NetworkExternalCellsTable {
  /** The operator the row belongs to (docs/tenancy.md): filled in and filtered by the operator scope. */
  operator_id: TenantColumn;
  dn: string;
  name: string;
  /** 2G, 3G, 4G or 5G. */
  kind: string;
  node_name: string | null;
  pci: number | null;
  psc: number | null;
  bsic: number | null;
  channel: number | null;
  band: string | null;
  tac: number | null;
  lac: number | null;
  plmn: string | null;
  owner_id: BigIntColumn;
  cell_id: BigIntColumn;
  global_id: string | null;
  /** The cell of this dump the proxy stands for (same technology and global id); null when outside the dump. */
  real_cell_dn: ColumnType<string | null, never, string | null>;
}

export interface NetworkRelationsTable {
  /** The operator the row belongs to (docs/tenancy.md): filled in and filtered by the operator scope. */
  operator_id: TenantColumn;
  /** 1…n in file order, per import. */
  id: number;
  dn: string;
  name: string;
  node_name: string | null;
  /** `<source RAT>-<target RAT>`, e.g. LTE-UTRAN. */
  kind: string;
  source_cell_dn: string;
  /** The DN the relation points at, as written in the dump. */
  target_ref: string | null;
  created_by: string | null;
  is_remove_allowed: number;
  is_ho_allowed: number;
  /**
   * The cell of this dump the relation leads to: the target itself, the cell owning the target DN
   * (NR: a DU DN), or the real cell behind the target external cell. Null when the target is outside
   * the dump.
   */
  target_cell_dn: ColumnType<string | null, never, string | null>;
  /** The external cell (proxy) the relation points at, when it points at one. */
  target_external_dn: ColumnType<string | null, never, string | null>;
}

export interface NetworkImportsTable {
  /** The operator the row belongs to (docs/tenancy.md): filled in and filtered by the operator scope. */
  operator_id: TenantColumn;
  id: Generated<number>;
  file_name: string;
  /** As requested: auto, bulkcm or cmedit. */
  format: string;
  /** Coordinate encoding used: microdegrees, 3gpp or degrees. */
  coords: string;
  imported_at: string;
  /** User id; null for imports from the command line or the demo data. */
  imported_by: number | null;
  /** What the import stored, as NetworkCounts JSON. */
  counts_json: string;
  bytes: ColumnType<number | string, number, number>;
}

/**
 * RAN sharing (migration 0016, docs/tenancy.md): a site of one operator (`operator_id`, the owner) shared
 * with a partner. MORAN: each operator has its own layer (nodes, cells) on the shared equipment; MOCN:
 * one layer, the owner's, broadcasting both operators' PLMNs. The site is visible to both.
 */
export interface NetworkSiteSharesTable {
  operator_id: TenantColumn;
  site_id: string;
  partner_operator_id: number;
  mode: 'MORAN' | 'MOCN';
}

export interface NetworkTables {
  network_sites: NetworkSitesTable;
  network_nodes: NetworkNodesTable;
  network_cells: NetworkCellsTable;
  network_cell_alt_dns: NetworkCellAltDnsTable;
  network_external_cells: NetworkExternalCellsTable;
  network_relations: NetworkRelationsTable;
  network_imports: NetworkImportsTable;
  network_site_shares: NetworkSiteSharesTable;
}
