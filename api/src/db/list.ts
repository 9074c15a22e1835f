import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';
import { containsPattern, dateFilterText, ListQueryError, parseFilters } from '../domain/tracking';
import type { Database } from './schema';

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

/** The shared table's list query (page, size, sort, order, filters), as every server-side list takes it. */
export interface ListQuery {
  page?: number;
  size?: number;
  sort?: string;
  order?: 'ascend' | 'descend';
  filters?: string;
}

/**
 * A list over a FROM subquery whose columns are already named as the contract's fields: filters
 * (contains, any case; dates as the tables show them), sort (nulls last, then the tie-break fields),
 * paging and the total are applied outside it, so each list only says how its rows are made.
 */
export interface ListSource {
  /** `select … as "field", …` — every field of `fields`, nothing the contract does not name. */
  from: RawBuilder<unknown>;
  fields: readonly string[];
  dateFields: ReadonlySet<string>;
  numberFields: ReadonlySet<string>;
  defaultSort: string;
  defaultOrder: 'ascend' | 'descend';
  /** Fields that make the order total (a page never repeats or skips a row). */
  tieBreak: readonly string[];
  /**
   * `select … from …` with exactly as many rows as `from`, cheaper to count: without a filter the total
   * is counted from it. SQLite keeps joins to unique keys that change no row count (PostgreSQL drops
   * them), and counting them costs a lookup per row of a million.
   */
  countFrom?: RawBuilder<unknown>;
}

/**
 * `lower(text) like pattern` on PostgreSQL. SQLite's LIKE already ignores the case of ASCII letters,
 * and its lower() changes only those, so there the column is matched as it is: the same rows, without
 * a lowered copy of every value scanned.
 */
export function containsMatch(db: Kysely<Database>, text: RawBuilder<unknown>, pattern: string): RawBuilder<boolean> {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? sql<boolean>`lower(${text}) like ${pattern} escape '\\'`
    : sql<boolean>`${text} like ${pattern} escape '\\'`;
}

const column = (field: string) => sql.ref(`q.${field}`);

export async function listFrom<T>(db: Kysely<Database>, source: ListSource, query: ListQuery): Promise<{ rows: T[]; total: number }> {
  const page = query.page ?? 1;
  const size = Math.min(query.size ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  const sortField = query.sort ?? source.defaultSort;
  if (!source.fields.includes(sortField)) throw new ListQueryError(`Unknown sort field "${sortField.slice(0, 50)}".`);
  const filters = parseFilters(query.filters, source.fields).map(([field, needle]) => {
    const text = source.numberFields.has(field) ? sql`cast(${column(field)} as text)` : column(field);
    return containsMatch(db, text, containsPattern(source.dateFields.has(field) ? dateFilterText(needle) : needle));
  });
  const where = filters.length > 0 ? sql`where ${sql.join(filters, sql` and `)}` : sql``;
  const order = query.order ?? (query.sort === undefined ? source.defaultOrder : 'ascend');
  const direction = order === 'descend' ? sql`desc` : sql`asc`;
  const ties = source.tieBreak.filter((f) => f !== sortField).map((f) => sql`${column(f)} asc`);
  const orderBy = sql`order by case when ${column(sortField)} is null then 1 else 0 end, ${column(sortField)} ${direction}${
    ties.length > 0 ? sql`, ${sql.join(ties)}` : sql``
  }`;
  const from = sql`(${source.from}) as q`;
  const counted = filters.length === 0 && source.countFrom ? sql`(${source.countFrom}) as q` : from;
  const [count, rows] = await Promise.all([
    sql<{ total: number | string }>`select count(*) as total from ${counted} ${where}`.execute(db),
    sql<T>`select ${sql.join(source.fields.map((f) => column(f)))} from ${from} ${where} ${orderBy} limit ${size} offset ${(page - 1) * size}`.execute(db),
  ]);
  return { rows: rows.rows, total: Number(count.rows[0]?.total ?? 0) };
}
