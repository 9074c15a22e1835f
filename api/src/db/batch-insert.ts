import { CompiledQuery, PostgresAdapter, type Kysely } from 'kysely';
import { isUnscoped, OPERATOR_COLUMN, requireOperatorId, TENANT_TABLES } from './operator-scope';
import type { Database } from './schema';

/** A row to insert, by column name. */
export type InsertRow = Record<string, unknown>;

/**
 * Rows per INSERT at most. Larger batches save nothing: a 100,000-row tracking import ran ~3 % faster on
 * both dialects with 500-row batches than with 1,428 (the parameter limit's), and its peak RSS fell by
 * ~30 MB, since each batch's values live until it is written (bench/tracking.mjs).
 */
export const MAX_BATCH_ROWS = 500;

/** Rows per INSERT: at most {@link MAX_BATCH_ROWS}, and under every dialect's parameter limit (SQLite 32,766; PostgreSQL 65,535). */
export function batchSizeFor(columns: number): number {
  return Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(30_000 / columns)));
}

/**
 * The `(?, ?), (?, ?)` of a multi-row INSERT of `rows` rows of `width` values (`$1, $2` … on PostgreSQL).
 */
export function valuesPlaceholders(rows: number, width: number, postgres: boolean): string {
  const tuples: string[] = [];
  for (let r = 0; r < rows; r += 1) {
    const marks: string[] = [];
    for (let c = 1; c <= width; c += 1) marks.push(postgres ? `$${r * width + c}` : '?');
    tuples.push(`(${marks.join(', ')})`);
  }
  return tuples.join(', ');
}

/**
 * Multi-row INSERTs written as text (a full batch's built once), for imports of hundreds of thousands
 * of rows: there the query builder's per-value nodes cost more than the database's inserts. Table and
 * column names must be constants of the caller, never input. Rows are read by `keys` (the columns'
 * names unless given, e.g. camelCase fields of a contract); `fixed` gives columns the same value on
 * every row.
 */
export class BatchInsert {
  private params: unknown[] = [];
  private rows = 0;
  private readonly size: number;
  private readonly postgres: boolean;
  private readonly head: string;
  private readonly keys: readonly string[];
  /** Per column: whether its value is the caller's fixed one, known once rather than looked up for every value. */
  private readonly isFixed: readonly boolean[];
  private readonly fixed: InsertRow;
  /**
   * The statement of a full batch, built once: every batch but the last is full, and building its text
   * again for each cost a 100,000-row tracking import ~2 % of its time (with 1,428-row batches).
   */
  private fullBatchText: string | null = null;
  written = 0;

  constructor(
    private readonly db: Kysely<Database>,
    table: string,
    columns: readonly string[],
    options: { keys?: readonly string[]; fixed?: InsertRow } = {},
  ) {
    // Compiled SQL does not pass through the operator scope's rewriting, so a tenant table's rows get
    // the operator here, as a fixed column (docs/tenancy.md).
    // Unscoped system work (a migration, a bench on an older schema) writes the columns it names.
    if (TENANT_TABLES.has(table) && !columns.includes(OPERATOR_COLUMN) && !isUnscoped()) {
      const operatorId = requireOperatorId();
      columns = [...columns, OPERATOR_COLUMN];
      options = { ...options, keys: [...(options.keys ?? columns.slice(0, -1)), OPERATOR_COLUMN], fixed: { ...options.fixed, [OPERATOR_COLUMN]: operatorId } };
    }
    this.keys = options.keys ?? columns;
    this.fixed = options.fixed ?? {};
    this.isFixed = this.keys.map((key) => key in this.fixed);
    this.size = batchSizeFor(columns.length);
    this.postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    this.head = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values `;
  }

  async add(row: InsertRow): Promise<void> {
    const { keys, isFixed, params } = this;
    for (let k = 0; k < keys.length; k += 1) {
      const key = keys[k]!;
      params.push(isFixed[k] ? this.fixed[key] : (row[key] ?? null));
    }
    this.rows += 1;
    this.written += 1;
    if (this.rows >= this.size) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.rows === 0) return;
    const params = this.params;
    const rows = this.rows;
    this.params = [];
    this.rows = 0;
    await this.db.executeQuery(CompiledQuery.raw(this.textFor(rows), params));
  }

  private textFor(rows: number): string {
    if (rows === this.size && this.fullBatchText !== null) return this.fullBatchText;
    const text = this.head + valuesPlaceholders(rows, this.keys.length, this.postgres);
    if (rows === this.size) this.fullBatchText = text;
    return text;
  }
}
