import { Readable } from 'node:stream';
import { CompiledQuery, PostgresAdapter, sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { MAX_BATCH_ROWS, valuesPlaceholders } from '../db/batch-insert';
import { OPERATOR_COLUMN, requireOperatorId } from '../db/operator-scope';
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
import type {
  NetworkCellAltDnsTable,
  NetworkCellsTable,
  NetworkExternalCellsTable,
  NetworkNodesTable,
  NetworkRelationsTable,
  NetworkSitesTable,
} from './tables';

export const IMPORT_FORMATS = ['auto', 'bulkcm', 'cmedit'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** Rows per INSERT: the console's one rule for batched writes. */
export const DEFAULT_BATCH_SIZE = MAX_BATCH_ROWS;

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
    // The data set replaced is the current operator's; the others' inventories are not touched.
    const operatorId = requireOperatorId();

    return await db.transaction().execute(async (outer) => {
      const trx = outer.withTables<LoadTables>();
      const postgres = trx.getExecutor().adapter instanceof PostgresAdapter;
      if (postgres) {
        // One import at a time per operator across every API instance: a second one into the same
        // operator waits, then replaces the first whole (without the lock its DELETE would miss rows the
        // first commits meanwhile). Imports into two operators touch disjoint rows (every key leads with
        // the operator), so they need not wait for each other.
        await sql`select pg_advisory_xact_lock(${IMPORT_LOCK_KEY}, ${operatorId})`.execute(trx);
        // Bulk statements: compiling each one to machine code costs more than it saves.
        await sql`set local jit = off`.execute(trx);
      }
      for (const table of DATA_TABLES) await trx.deleteFrom(table).execute();
      const deferred = postgres ? [] : await dropSqliteIndexes(trx);
      await createRelationLoadTable(trx);

      const staging = new StagingSink(trx, batchSize, operatorId);
      const mapped = await importNetworkDump(counted(input, tally), staging, { coords, format, siteRule });
      await staging.flush();

      for (const index of deferred) if (index.table !== 'network_relations') await ddl(trx, index.sql);
      if (postgres) {
        // Statistics of the refilled tables (the temporary one is never auto-analysed): without them the planner
        // resolves external cells by scanning, seconds instead of a fraction of one on a 100 MB dump.
        await ddl(trx, 'analyze network_cells, network_cell_alt_dns, network_external_cells, network_relations_load');
      }
      await externalCellResolution(outer).execute();
      await insertResolvedRelations(trx, operatorId);
      await trx.schema.dropTable('network_relations_load').execute();
      for (const index of deferred) if (index.table === 'network_relations') await ddl(trx, index.sql);

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

/**
 * Index definitions and statistics name tenant tables but read or write no rows, so no operator filter
 * can apply: sent compiled, past the operator scope's check of raw SQL.
 */
async function ddl(trx: ImportTransaction, text: string): Promise<void> {
  await trx.executeQuery(CompiledQuery.raw(text));
}

/** Arbitrary but fixed: with the operator's id, the advisory lock that serialises an operator's network imports on PostgreSQL. */
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

/**
 * External cells stand for the real cell of the same technology and global id, when the dump has it.
 * Each external cell's look-up must seek the (operator_id, global_id, tech, dn) index (migration 0022):
 * any other plan reads the operator's cells once per external cell. Exported for the test of its plan.
 */
export function externalCellResolution(db: Kysely<Database>) {
  return db
    .updateTable('network_external_cells')
    .set((eb) => ({
      // min(): a global id configured twice (a planning error) still resolves, to the same cell every time.
      real_cell_dn: eb
        .selectFrom('network_cells as c')
        .select((s) => s.fn.min('c.dn').as('dn'))
        .whereRef('c.global_id', '=', 'network_external_cells.global_id')
        .whereRef('c.tech', '=', 'network_external_cells.kind'),
    }))
    .where('global_id', 'is not', null);
}

/**
 * Relation targets are DNs as the dump wrote them: a cell's DN, one of its other DNs (NR: the DU), or
 * an external cell's DN (then the real cell behind it, when there is one). Resolved once every row is
 * in, because the dump names targets before they appear. Each join is on a primary key, so it adds at
 * most one row.
 */
async function insertResolvedRelations(trx: ImportTransaction, operatorId: number): Promise<void> {
  await trx
    .insertInto('network_relations')
    .columns([
      'operator_id',
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
          s.val(operatorId).as('operator_id'),
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
function int32(value: number | null, field: string, owner: string): number | null {
  if (value !== null && (value > INT32_MAX || value < -INT32_MAX - 1)) {
    throw new NetworkImportError(`${owner}: ${field} ${value} is out of range`);
  }
  return value;
}

function int64(value: number | null, field: string, owner: string): number | null {
  if (value !== null && !Number.isSafeInteger(value)) throw new NetworkImportError(`${owner}: ${field} ${value} is out of range`);
  return value;
}

// Column lists in the order each sink method pushes its values.
const SITE_COLUMNS = ['id', 'name', 'lat', 'lon'] as const satisfies ReadonlyArray<keyof NetworkSitesTable>;
const NODE_COLUMNS = ['name', 'dn', 'site_id', 'technology', 'type'] as const satisfies ReadonlyArray<keyof NetworkNodesTable>;
const CELL_COLUMNS = [
  'dn',
  'name',
  'node_name',
  'site_id',
  'tech',
  'band',
  'channel',
  'pci',
  'psc',
  'bsic',
  'lac',
  'tac',
  'nr_tac',
  'azimuth',
  'cpich_power',
  'max_tx_power',
  'plmns',
  'rach_root_sequence',
  'ssb',
  'cell_id',
  'local_cell_id',
  'owner_id',
  'global_id',
] as const satisfies ReadonlyArray<keyof NetworkCellsTable>;
const ALT_DN_COLUMNS = ['alt_dn', 'cell_dn'] as const satisfies ReadonlyArray<keyof NetworkCellAltDnsTable>;
const EXTERNAL_COLUMNS = [
  'dn',
  'name',
  'kind',
  'node_name',
  'pci',
  'psc',
  'bsic',
  'channel',
  'band',
  'tac',
  'lac',
  'plmn',
  'owner_id',
  'cell_id',
  'global_id',
] as const satisfies ReadonlyArray<keyof NetworkExternalCellsTable>;
const RELATION_LOAD_COLUMNS = [
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
] as const satisfies ReadonlyArray<keyof RelationLoadRow>;

/**
 * One table's pending rows as flat statement parameters, written by multi-row INSERTs of `batchSize`
 * rows. The statement text is built once per row count (in practice: once), not per batch through the
 * query builder, whose per-value nodes cost more than the inserts on a large dump; the values are
 * pushed by the sink in column order, so no row object is made either. Table and column names are
 * constants of this file. Compiled SQL passes the operator scope by, so a tenant table's buffer is
 * given the operator and appends it to every row itself.
 */
class RowBuffer {
  params: unknown[] = [];
  private readonly texts = new Map<number, string>();

  constructor(
    private readonly table: string,
    private readonly columns: readonly string[],
    /** `on conflict …` clause, or ''. */
    private readonly conflict: string,
    private readonly batchSize: number,
    private readonly postgres: boolean,
    /** The operator of every row, for a tenant table; null for the connection's own load table. */
    private readonly operatorId: number | null,
  ) {}

  private get width(): number {
    return this.columns.length + (this.operatorId === null ? 0 : 1);
  }

  get rows(): number {
    return this.params.length / this.width;
  }

  /** Ends a row the sink pushed: a tenant table's rows get their operator last, as the statement names it. */
  endRow(): void {
    if (this.operatorId !== null) this.params.push(this.operatorId);
  }

  /** Writes full batches; with `all`, the remainder too. */
  async write(trx: ImportTransaction, all: boolean): Promise<void> {
    const width = this.width;
    while (this.rows >= this.batchSize || (all && this.params.length > 0)) {
      const rows = Math.min(this.rows, this.batchSize);
      const params = rows === this.rows ? this.params : this.params.slice(0, rows * width);
      this.params = rows === this.rows ? [] : this.params.slice(rows * width);
      await trx.executeQuery(CompiledQuery.raw(this.text(rows), params));
    }
  }

  private text(rows: number): string {
    let text = this.texts.get(rows);
    if (text === undefined) {
      const columns = this.operatorId === null ? this.columns : [...this.columns, OPERATOR_COLUMN];
      const head = `insert into "${this.table}" (${columns.map((c) => `"${c}"`).join(', ')}) values `;
      text = head + valuesPlaceholders(rows, columns.length, this.postgres) + (this.conflict === '' ? '' : ` ${this.conflict}`);
      // Only the full batch's text is asked for again; a remainder's is used once.
      if (rows === this.batchSize) this.texts.set(rows, text);
    }
    return text;
  }
}

/**
 * Buffers what the mapper hands over and writes it when the mapper drains (after every input chunk)
 * or at the end. Memory: at most one batch per table plus one chunk's worth of entities.
 */
class StagingSink implements NetworkSink {
  /** Keyed by id: a site may come twice (the second time with coordinates) and one statement must not touch a row twice. */
  private sites = new Map<string, Site>();
  private readonly siteRows: RowBuffer;
  private readonly nodes: RowBuffer;
  private readonly cells: RowBuffer;
  private readonly altDns: RowBuffer;
  private readonly externals: RowBuffer;
  private readonly relations: RowBuffer;
  private nextRelationId = 1;

  constructor(
    private readonly trx: ImportTransaction,
    private readonly batchSize: number,
    operatorId: number,
  ) {
    const postgres = trx.getExecutor().adapter instanceof PostgresAdapter;
    const buffer = (table: string, columns: readonly string[], conflict = '') => new RowBuffer(table, columns, conflict, batchSize, postgres, operatorId);
    // Natural keys are unique per operator: (operator_id, key) is the primary key conflicts are found on.
    // The mapper re-sends a site only once it knows its coordinates (and the node's name for it).
    this.siteRows = buffer(
      'network_sites',
      SITE_COLUMNS,
      'on conflict ("operator_id", "id") do update set "name" = excluded."name", "lat" = excluded."lat", "lon" = excluded."lon"',
    );
    // Duplicates (a node, cell or external cell listed twice in one file) keep the first occurrence.
    this.nodes = buffer('network_nodes', NODE_COLUMNS, 'on conflict ("operator_id", "name") do nothing');
    this.cells = buffer('network_cells', CELL_COLUMNS, 'on conflict ("operator_id", "dn") do nothing');
    this.altDns = buffer('network_cell_alt_dns', ALT_DN_COLUMNS, 'on conflict ("operator_id", "alt_dn") do nothing');
    this.externals = buffer('network_external_cells', EXTERNAL_COLUMNS, 'on conflict ("operator_id", "dn") do nothing');
    // The load table is the connection's own, gone with the transaction: no operator in it.
    this.relations = new RowBuffer('network_relations_load', RELATION_LOAD_COLUMNS, '', batchSize, postgres, null);
  }

  site(s: Site): void {
    this.sites.set(s.id, s);
  }

  node(n: NetworkNode): void {
    this.nodes.params.push(n.name, n.dn, n.siteId, n.technology, n.type);
    this.nodes.endRow();
  }

  cell(c: Cell): void {
    const owner = `cell ${c.name}`;
    this.cells.params.push(
      c.dn,
      c.name,
      c.nodeName,
      c.siteId,
      c.tech,
      c.band,
      int32(c.channel, 'channel', owner),
      int32(c.pci, 'pci', owner),
      int32(c.psc, 'psc', owner),
      int32(c.bsic, 'bsic', owner),
      int32(c.lac, 'lac', owner),
      int32(c.tac, 'tac', owner),
      int32(c.nrTac, 'nrTac', owner),
      c.azimuth,
      int32(c.cpichPower, 'cpichPower', owner),
      int32(c.maxTxPower, 'maxTxPower', owner),
      c.plmns.join(','),
      int32(c.rachRootSequence, 'rachRootSequence', owner),
      int32(c.ssb, 'ssb', owner),
      int64(c.cellId, 'cellId', owner),
      int64(c.localCellId, 'localCellId', owner),
      int64(c.ownerId, 'ownerId', owner),
      c.globalId,
    );
    this.cells.endRow();
    for (const alt of c.altDns) {
      this.altDns.params.push(alt, c.dn);
      this.altDns.endRow();
    }
  }

  externalCell(e: ExternalCell): void {
    const owner = `external cell ${e.name}`;
    this.externals.params.push(
      e.dn,
      e.name,
      e.kind,
      e.nodeName,
      int32(e.pci, 'pci', owner),
      int32(e.psc, 'psc', owner),
      int32(e.bsic, 'bsic', owner),
      int32(e.channel, 'channel', owner),
      e.band,
      int32(e.tac, 'tac', owner),
      int32(e.lac, 'lac', owner),
      e.plmn,
      int64(e.ownerId, 'ownerId', owner),
      int64(e.cellId, 'cellId', owner),
      e.globalId,
    );
    this.externals.endRow();
  }

  relation(r: Relation): void {
    this.relations.params.push(
      this.nextRelationId++,
      r.dn,
      r.name,
      r.nodeName,
      r.kind,
      r.sourceCellDn,
      r.targetRef,
      r.createdBy,
      r.isRemoveAllowed ? 1 : 0,
      r.isHoAllowed ? 1 : 0,
    );
    this.relations.endRow();
  }

  /** Writes every full batch (the mapper calls this after each chunk, and once at the end). */
  async drain(): Promise<void> {
    await this.write(false);
  }

  /** Writes everything still buffered. */
  async flush(): Promise<void> {
    await this.write(true);
  }

  // Tables in the order the mapper fills them, so a node's row is in before its cells.
  private async write(all: boolean): Promise<void> {
    if (this.sites.size >= this.batchSize || (all && this.sites.size > 0)) {
      for (const s of this.sites.values()) {
        this.siteRows.params.push(s.id, s.name, s.lat, s.lon);
        this.siteRows.endRow();
      }
      this.sites = new Map();
      await this.siteRows.write(this.trx, true);
    }
    await this.nodes.write(this.trx, all);
    await this.cells.write(this.trx, all);
    await this.altDns.write(this.trx, all);
    await this.externals.write(this.trx, all);
    await this.relations.write(this.trx, all);
  }
}
