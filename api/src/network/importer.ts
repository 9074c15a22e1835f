import { Readable } from 'node:stream';
import { PostgresAdapter, sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema';
import {
  assertCoordinateEncoding,
  importNetworkDump,
  NetworkOptionError,
  NetworkParseError,
  type Cell,
  type Chunk,
  type CoordinateEncoding,
  type ExternalCell,
  type NetworkCounts,
  type NetworkNode,
  type NetworkSink,
  type Relation,
  type Site,
  type SiteRule,
  type SiteSummary,
  DEFAULT_SITE_RULE,
  siteWarnings,
} from '../domain/network';
import { countStored, nodesPerSite } from './queries';
import type { NetworkCellsTable, NetworkExternalCellsTable, NetworkNodesTable, NetworkRelationsTable, NetworkSitesTable } from './tables';

export const IMPORT_FORMATS = ['auto', 'bulkcm', 'cmedit'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** Rows per INSERT: large enough to amortise the round trip, small enough for every dialect's parameter limit. */
export const DEFAULT_BATCH_SIZE = 500;

export interface ImportDumpOptions {
  /** Recorded in the import history (a name, never a server path). */
  fileName: string;
  /** Default 'auto'. */
  format?: ImportFormat;
  coords: CoordinateEncoding;
  /** User id of whoever imported; null/absent for the command line and the demo data. */
  importedBy?: number | null;
  /** Which part of a node name (RNC/BSC cells: of the cell name) is the site id; default: the domain's rule. */
  siteRule?: SiteRule;
  batchSize?: number;
}

export interface ImportDumpResult {
  /** What the database holds after the import, counted from the stored rows. */
  counts: NetworkCounts;
  /** ISO-8601 UTC. */
  importedAt: string;
  /** Bytes read from the input. */
  bytes: number;
  /** How the nodes fell on sites under the site rule. */
  sites: SiteSummary;
  /** For the user: what in the result looks wrong (e.g. one site holding most nodes: a wrong site rule). */
  warnings: string[];
}

/** A value the dump holds that the database cannot (e.g. an integer out of range): the user's file is at fault. */
export class NetworkImportError extends Error {
  override readonly name = 'NetworkImportError';
  readonly statusCode = 400;
}

/** Errors caused by the file or the import settings (answer 400), as opposed to faults of the server. */
export function isDumpInputError(error: unknown): error is NetworkParseError | NetworkOptionError | NetworkImportError {
  return error instanceof NetworkParseError || error instanceof NetworkOptionError || error instanceof NetworkImportError;
}

export function assertImportFormat(value: unknown): ImportFormat {
  if (typeof value === 'string' && (IMPORT_FORMATS as readonly string[]).includes(value)) return value as ImportFormat;
  throw new NetworkOptionError(`unknown dump format ${JSON.stringify(value)}; expected one of ${IMPORT_FORMATS.join(', ')}`);
}

/**
 * Replaces the network data set with the content of one dump, in ONE transaction: the previous data
 * set is deleted, every entity the mapper hands over is inserted in batches, relation targets and
 * external cells are resolved in SQL, and the import is recorded. Anything wrong with the file (bad
 * XML, truncation, wrong root, unknown encoding, bad values, bad options) rejects with the parser's
 * error and rolls everything back, so the previous data set stays exactly as it was.
 *
 * Memory: at most one batch per table is buffered; the parser and mapper stream.
 *
 * On SQLite the whole import holds the single connection, so other queries wait until it commits;
 * on PostgreSQL readers keep seeing the previous data set until then.
 */
export async function importDump(db: Kysely<Database>, input: Readable | AsyncIterable<Chunk>, options: ImportDumpOptions): Promise<ImportDumpResult> {
  try {
    // Settings are checked before the transaction starts: a bad option must not even delete anything.
    const format = assertImportFormat(options.format ?? 'auto');
    const coords = assertCoordinateEncoding(options.coords);
    const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    const siteRule = options.siteRule ?? DEFAULT_SITE_RULE;
    const tally = { bytes: 0 };

    return await db.transaction().execute(async (outer) => {
      const trx = outer.withTables<LoadTables>();
      const postgres = trx.getExecutor().adapter instanceof PostgresAdapter;
      if (postgres) {
        // One import at a time across every API instance: a second one waits, then replaces the first
        // whole (without the lock its DELETE would miss rows the first commits meanwhile).
        await sql`select pg_advisory_xact_lock(${IMPORT_LOCK_KEY})`.execute(trx);
        // Bulk statements: compiling each one to machine code costs more than it saves.
        await sql`set local jit = off`.execute(trx);
      }
      for (const table of DATA_TABLES) await trx.deleteFrom(table).execute();
      const deferred = postgres ? [] : await dropSqliteIndexes(trx);
      await createRelationLoadTable(trx);

      const staging = new StagingSink(trx, batchSize);
      const mapped = await importNetworkDump(counted(input, tally), staging, { coords, format, siteRule });
      await staging.flush();

      for (const index of deferred) if (index.table !== 'network_relations') await sql.raw(index.sql).execute(trx);
      if (postgres) {
        // Statistics of the refilled tables (the temporary one is never auto-analysed): without them the planner
        // resolves external cells by scanning, seconds instead of a fraction of one on a 100 MB dump.
        await sql`analyze network_cells, network_cell_alt_dns, network_external_cells, network_relations_load`.execute(trx);
      }
      await resolveExternalCells(trx);
      await insertResolvedRelations(trx);
      await trx.schema.dropTable('network_relations_load').execute();
      for (const index of deferred) if (index.table === 'network_relations') await sql.raw(index.sql).execute(trx);

      const counts = await countStored(outer);
      const sites: SiteSummary = { rule: siteRule.source, total: counts.sites, ...(await nodesPerSite(outer)), unmatched: mapped.unmatchedNames };
      const importedAt = new Date().toISOString();
      await trx
        .insertInto('network_imports')
        .values({
          file_name: options.fileName,
          format,
          coords,
          imported_at: importedAt,
          imported_by: options.importedBy ?? null,
          counts_json: JSON.stringify(counts),
          bytes: tally.bytes,
        })
        .execute();
      return { counts, importedAt, bytes: tally.bytes, sites, warnings: siteWarnings(sites) };
    });
  } finally {
    // Whatever happened, the file handle goes: the parser may have stopped half way or never started.
    if (input instanceof Readable && !input.destroyed) input.destroy();
  }
}

/** Arbitrary but fixed: the advisory lock that serialises network imports on PostgreSQL. */
const IMPORT_LOCK_KEY = 7_316_011;

const DATA_TABLES = ['network_relations', 'network_external_cells', 'network_cell_alt_dns', 'network_cells', 'network_nodes', 'network_sites'] as const;

/**
 * Relations as read, before their targets are resolved: a temporary, unindexed table (private to the
 * connection, gone with the transaction), so each relation row is written to the real table once,
 * complete, instead of being inserted and then updated (which rewrites every row and its index entries).
 */
type RelationLoadRow = Omit<NetworkRelationsTable, 'target_cell_dn' | 'target_external_dn'>;
// A type alias, not an interface: Kysely needs the index signature an alias has.
type LoadTables = { network_relations_load: RelationLoadRow };
type ImportTransaction = Transaction<Database & LoadTables>;

async function createRelationLoadTable(trx: ImportTransaction): Promise<void> {
  await trx.schema
    .createTable('network_relations_load')
    .temporary()
    .addColumn('id', 'integer', (c) => c.notNull())
    .addColumn('dn', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('node_name', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('source_cell_dn', 'text', (c) => c.notNull())
    .addColumn('target_ref', 'text')
    .addColumn('created_by', 'text')
    .addColumn('is_remove_allowed', 'integer', (c) => c.notNull())
    .addColumn('is_ho_allowed', 'integer', (c) => c.notNull())
    .execute();
}

interface DeferredIndex {
  table: string;
  sql: string;
}

/**
 * SQLite bulk load: maintaining B-tree indexes over long DN keys row by row costs several times the
 * inserts themselves, while building them once from the loaded rows is cheap. The indexes are dropped
 * inside the import's transaction and recreated from their own stored definitions; a rollback restores
 * them with everything else. (On SQLite nobody else can read while the import holds the connection;
 * PostgreSQL keeps its indexes, because dropping one would lock its readers out until the commit.)
 */
async function dropSqliteIndexes(trx: ImportTransaction): Promise<DeferredIndex[]> {
  const { rows } = await sql<{ name: string; table: string; sql: string }>`
    select name, tbl_name as "table", sql from sqlite_master
    where type = 'index' and sql is not null and tbl_name in (${sql.join([...DATA_TABLES])})
  `.execute(trx);
  for (const index of rows) await sql`drop index ${sql.id(index.name)}`.execute(trx);
  return rows.map(({ table, sql: ddl }) => ({ table, sql: ddl }));
}

async function* counted(input: AsyncIterable<Chunk>, tally: { bytes: number }): AsyncGenerator<Chunk> {
  for await (const chunk of input as AsyncIterable<unknown>) {
    if (typeof chunk === 'string') tally.bytes += Buffer.byteLength(chunk);
    else if (chunk instanceof Uint8Array) tally.bytes += chunk.byteLength;
    yield chunk as Chunk;
  }
}

/** External cells stand for the real cell of the same technology and global id, when the dump has it. */
async function resolveExternalCells(trx: ImportTransaction): Promise<void> {
  await trx
    .updateTable('network_external_cells')
    .set((eb) => ({
      // min(): a global id configured twice (a planning error) still resolves, to the same cell every time.
      real_cell_dn: eb
        .selectFrom('network_cells as c')
        .select((s) => s.fn.min('c.dn').as('dn'))
        .whereRef('c.global_id', '=', 'network_external_cells.global_id')
        .whereRef('c.tech', '=', 'network_external_cells.kind'),
    }))
    .where('global_id', 'is not', null)
    .execute();
}

/**
 * Relation targets are DNs as the dump wrote them: a cell's DN, one of its other DNs (NR: the DU), or
 * an external cell's DN (then the real cell behind it, when there is one). Resolved once every row is
 * in, because the dump names targets before they appear. Each join is on a primary key, so it adds at
 * most one row.
 */
async function insertResolvedRelations(trx: ImportTransaction): Promise<void> {
  await trx
    .insertInto('network_relations')
    .columns([
      'id',
      'dn',
      'name',
      'node_name',
      'kind',
      'source_cell_dn',
      'target_ref',
      'created_by',
      'is_remove_allowed',
      'is_ho_allowed',
      'target_cell_dn',
      'target_external_dn',
    ])
    .expression((eb) =>
      eb
        .selectFrom('network_relations_load as r')
        .leftJoin('network_cells as c', 'c.dn', 'r.target_ref')
        .leftJoin('network_cell_alt_dns as a', 'a.alt_dn', 'r.target_ref')
        .leftJoin('network_external_cells as e', 'e.dn', 'r.target_ref')
        .select((s) => [
          'r.id',
          'r.dn',
          'r.name',
          'r.node_name',
          'r.kind',
          'r.source_cell_dn',
          'r.target_ref',
          'r.created_by',
          'r.is_remove_allowed',
          'r.is_ho_allowed',
          s.fn.coalesce('c.dn', 'a.cell_dn', 'e.real_cell_dn').as('target_cell_dn'),
          'e.dn as target_external_dn',
        ])
        // File order: SQLite then appends to the table instead of inserting all over it.
        .orderBy('r.id'),
    )
    .execute();
}

// ---------------------------------------------------------------------------------------------------
// Staging: the sink the mapper writes to, one buffer per table.

const INT32_MAX = 2 ** 31 - 1;

/** Integer columns are 32-bit on PostgreSQL; checking here makes both dialects refuse the same files. */
function int32(value: number | null, field: string, owner: () => string): number | null {
  if (value !== null && (value > INT32_MAX || value < -INT32_MAX - 1)) {
    throw new NetworkImportError(`${owner()}: ${field} ${value} is out of range`);
  }
  return value;
}

function int64(value: number | null, field: string, owner: () => string): number | null {
  if (value !== null && !Number.isSafeInteger(value)) throw new NetworkImportError(`${owner()}: ${field} ${value} is out of range`);
  return value;
}

function cellRow(c: Cell): Insertable<NetworkCellsTable> {
  const owner = () => `cell ${c.name}`;
  return {
    dn: c.dn,
    name: c.name,
    node_name: c.nodeName,
    site_id: c.siteId,
    tech: c.tech,
    band: c.band,
    channel: int32(c.channel, 'channel', owner),
    pci: int32(c.pci, 'pci', owner),
    psc: int32(c.psc, 'psc', owner),
    bsic: int32(c.bsic, 'bsic', owner),
    lac: int32(c.lac, 'lac', owner),
    tac: int32(c.tac, 'tac', owner),
    nr_tac: int32(c.nrTac, 'nrTac', owner),
    azimuth: c.azimuth,
    cpich_power: int32(c.cpichPower, 'cpichPower', owner),
    max_tx_power: int32(c.maxTxPower, 'maxTxPower', owner),
    plmns: c.plmns.join(','),
    rach_root_sequence: int32(c.rachRootSequence, 'rachRootSequence', owner),
    ssb: int32(c.ssb, 'ssb', owner),
    cell_id: int64(c.cellId, 'cellId', owner),
    local_cell_id: int64(c.localCellId, 'localCellId', owner),
    owner_id: int64(c.ownerId, 'ownerId', owner),
    global_id: c.globalId,
  };
}

function externalRow(e: ExternalCell): Insertable<NetworkExternalCellsTable> {
  const owner = () => `external cell ${e.name}`;
  return {
    dn: e.dn,
    name: e.name,
    kind: e.kind,
    node_name: e.nodeName,
    pci: int32(e.pci, 'pci', owner),
    psc: int32(e.psc, 'psc', owner),
    bsic: int32(e.bsic, 'bsic', owner),
    channel: int32(e.channel, 'channel', owner),
    band: e.band,
    tac: int32(e.tac, 'tac', owner),
    lac: int32(e.lac, 'lac', owner),
    plmn: e.plmn,
    owner_id: int64(e.ownerId, 'ownerId', owner),
    cell_id: int64(e.cellId, 'cellId', owner),
    global_id: e.globalId,
  };
}

class StagingSink implements NetworkSink {
  /** Keyed by id: a site may come twice (the second time with coordinates) and one statement must not touch a row twice. */
  private sites = new Map<string, NetworkSitesTable>();
  private nodes: NetworkNodesTable[] = [];
  private cells: Array<Insertable<NetworkCellsTable>> = [];
  private altDns: Array<{ alt_dn: string; cell_dn: string }> = [];
  private externals: Array<Insertable<NetworkExternalCellsTable>> = [];
  private relations: RelationLoadRow[] = [];
  private nextRelationId = 1;

  constructor(
    private readonly trx: ImportTransaction,
    private readonly batchSize: number,
  ) {}

  async site(s: Site): Promise<void> {
    this.sites.set(s.id, { id: s.id, name: s.name, lat: s.lat, lon: s.lon });
    if (this.sites.size >= this.batchSize) await this.flushSites();
  }

  async node(n: NetworkNode): Promise<void> {
    this.nodes.push({ name: n.name, dn: n.dn, site_id: n.siteId, technology: n.technology, type: n.type });
    if (this.nodes.length >= this.batchSize) await this.flushNodes();
  }

  async cell(c: Cell): Promise<void> {
    this.cells.push(cellRow(c));
    for (const alt of c.altDns) this.altDns.push({ alt_dn: alt, cell_dn: c.dn });
    if (this.cells.length >= this.batchSize) await this.flushCells();
    if (this.altDns.length >= this.batchSize) await this.flushAltDns();
  }

  async externalCell(e: ExternalCell): Promise<void> {
    this.externals.push(externalRow(e));
    if (this.externals.length >= this.batchSize) await this.flushExternals();
  }

  async relation(r: Relation): Promise<void> {
    this.relations.push({
      id: this.nextRelationId++,
      dn: r.dn,
      name: r.name,
      node_name: r.nodeName,
      kind: r.kind,
      source_cell_dn: r.sourceCellDn,
      target_ref: r.targetRef,
      created_by: r.createdBy,
      is_remove_allowed: r.isRemoveAllowed ? 1 : 0,
      is_ho_allowed: r.isHoAllowed ? 1 : 0,
    });
    if (this.relations.length >= this.batchSize) await this.flushRelations();
  }

  async flush(): Promise<void> {
    await this.flushSites();
    await this.flushNodes();
    await this.flushCells();
    await this.flushAltDns();
    await this.flushExternals();
    await this.flushRelations();
  }

  private async flushSites(): Promise<void> {
    if (this.sites.size === 0) return;
    const rows = [...this.sites.values()];
    this.sites = new Map();
    await this.trx
      .insertInto('network_sites')
      .values(rows)
      // The mapper re-sends a site only once it knows its coordinates (and the node's name for it).
      .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({ name: eb.ref('excluded.name'), lat: eb.ref('excluded.lat'), lon: eb.ref('excluded.lon') })))
      .execute();
  }

  // Duplicates (a node, cell or external cell listed twice in one file) keep the first occurrence.
  private async flushNodes(): Promise<void> {
    if (this.nodes.length === 0) return;
    const rows = this.nodes;
    this.nodes = [];
    await this.trx
      .insertInto('network_nodes')
      .values(rows)
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }

  private async flushCells(): Promise<void> {
    if (this.cells.length === 0) return;
    const rows = this.cells;
    this.cells = [];
    await this.trx
      .insertInto('network_cells')
      .values(rows)
      .onConflict((oc) => oc.column('dn').doNothing())
      .execute();
  }

  private async flushAltDns(): Promise<void> {
    if (this.altDns.length === 0) return;
    const rows = this.altDns;
    this.altDns = [];
    await this.trx
      .insertInto('network_cell_alt_dns')
      .values(rows)
      .onConflict((oc) => oc.column('alt_dn').doNothing())
      .execute();
  }

  private async flushExternals(): Promise<void> {
    if (this.externals.length === 0) return;
    const rows = this.externals;
    this.externals = [];
    await this.trx
      .insertInto('network_external_cells')
      .values(rows)
      .onConflict((oc) => oc.column('dn').doNothing())
      .execute();
  }

  private async flushRelations(): Promise<void> {
    if (this.relations.length === 0) return;
    const rows = this.relations;
    this.relations = [];
    await this.trx.insertInto('network_relations_load').values(rows).execute();
  }
}
