import { CompiledQuery, PostgresAdapter, type Kysely } from 'kysely';
import type { Database } from './schema';

/** A row to insert, by column name. */
export type InsertRow = Record<string, unknown>;

/** Rows per INSERT: under every dialect's parameter limit (SQLite 32,766; PostgreSQL 65,535). */
export function batchSizeFor(columns: number): number {
  return Math.max(1, Math.floor(30_000 / columns));
}

/**
 * Multi-row INSERTs built as text once per batch, for imports of hundreds of thousands of rows: there
 * the query builder's per-value nodes cost more than the database's inserts. Table and column names
 * must be constants of the caller, never input. Rows are read by `keys` (the columns' names unless
 * given, e.g. camelCase fields of a contract); `fixed` gives columns the same value on every row.
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
  written = 0;

  constructor(
    private readonly db: Kysely<Database>,
    table: string,
    columns: readonly string[],
    options: { keys?: readonly string[]; fixed?: InsertRow } = {},
  ) {
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
    const width = this.keys.length;
    const tuples: string[] = [];
    for (let r = 0; r < rows; r += 1) {
      const marks: string[] = [];
      for (let c = 1; c <= width; c += 1) marks.push(this.postgres ? `$${r * width + c}` : '?');
      tuples.push(`(${marks.join(', ')})`);
    }
    await this.db.executeQuery(CompiledQuery.raw(this.head + tuples.join(', '), params));
  }
}
