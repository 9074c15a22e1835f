import { setImmediate as nextTurn } from 'node:timers/promises';
import { PostgresAdapter, sql, type CompiledQuery, type Kysely } from 'kysely';
import { BatchInsert } from '../db/batch-insert';
import { containsMatch } from '../db/list';
import type { ListQuery } from 'contracts';
import { scopedTo } from '../db/operator-scope';
import { PreparedReads, runPrepared, slot } from '../db/prepared';
import type { Database } from '../db/schema';
import { containsPattern, dateFilterText, ListQueryError, parseFilters } from '../domain/tracking';
import { columnOf, DATE_FIELDS, NUMBER_FIELDS, type TableName, type TableSpec } from './datasets';

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

/** `col as "field"` for every field: rows come back in the contract's shape. */
function selection(fields: readonly string[]) {
  return sql.join(fields.map((f) => sql`${sql.ref(columnOf(f))} as ${sql.id(f)}`));
}

/** Each tracking table's list statements, prepared per shape (sort, order, filtered fields): docs of PreparedReads. */
const PREPARED = new WeakMap<TableSpec, PreparedReads<'count' | 'page' | 'bounds'>>();
const SHAPE_SEPARATOR = '\u0000';

function listStatements(db: Kysely<Database>, spec: TableSpec, shapeKey: string) {
  const [sortField, order, ...filtered] = shapeKey.split(SHAPE_SEPARATOR) as [string, string, ...string[]];
  const filters = filtered.map((field, i) => {
    const column = sql.ref(columnOf(field));
    const text = NUMBER_FIELDS.has(field) ? sql`cast(${column} as text)` : column;
    return containsMatch(db, text, slot(`f${i}`) as never);
  });
  const where = sql`where ${sql.join([scopedTo(spec.table), ...filters], sql` and `)}`;
  const table = sql.table(spec.table);
  const direction = order === 'descend' ? sql`desc` : sql`asc`;
  const sortColumn = sql.ref(columnOf(sortField));
  const orderBy =
    sortField === 'id' ? sql`order by id ${direction}` : sql`order by case when ${sortColumn} is null then 1 else 0 end, ${sortColumn} ${direction}, id asc`;
  // SQLite counts in slices of the table's rowids (see countInSlices); PostgreSQL counts at once.
  const sliced = !(db.getExecutor().adapter instanceof PostgresAdapter);
  const slice = sliced ? sql` and rowid > ${slot('after')} and rowid <= ${slot('upTo')}` : sql``;
  return {
    count: sql`select count(*) as total from ${table} ${where}${slice}`,
    page: sql`select ${selection(spec.rowFields)} from ${table} ${where} ${orderBy} limit ${slot('size')} offset ${slot('offset')}`,
    bounds: sliced ? sql`select min(rowid) as low, max(rowid) as high from ${table} where ${scopedTo(spec.table)}` : sql`select 0 as low, 0 as high`,
  };
}

/**
 * One page of a tracking list: filtered ("contains", any case), sorted (nulls last, then file order)
 * and paged in SQL, plus the count of every matching row.
 */
export async function listRows<T>(db: Kysely<Database>, spec: TableSpec, query: ListQuery): Promise<{ rows: T[]; total: number }> {
  const page = query.page ?? 1;
  const size = Math.min(query.size ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  const sortField = query.sort ?? 'id';
  if (!spec.rowFields.includes(sortField)) throw new ListQueryError(`Unknown sort field "${sortField.slice(0, 50)}".`);
  const filters = parseFilters(query.filters, spec.rowFields);
  const values: Record<string, unknown> = { size, offset: (page - 1) * size };
  filters.forEach(([field, needle], i) => (values[`f${i}`] = containsPattern(DATE_FIELDS.has(field) ? dateFilterText(needle) : needle)));
  let prepared = PREPARED.get(spec);
  if (!prepared) PREPARED.set(spec, (prepared = new PreparedReads((handle, shape) => listStatements(handle, spec, shape))));
  const shape = [sortField, query.order === 'descend' ? 'descend' : 'ascend', ...filters.map(([field]) => field)].join(SHAPE_SEPARATOR);
  const statementsFor = (after: number, upTo: number) => prepared.statements(db, shape, { ...values, after, upTo });
  const statements = statementsFor(0, 0);
  const [total, rows] = await Promise.all([countRows(db, statements, statementsFor), runPrepared<T>(db, statements.page)]);
  return { rows: rows.rows, total };
}

/**
 * Bumped by {@link writeStamp}. Every write of a tracking table (import, demo, tracker sync, delta) is in a
 * transaction that also writes its stamp, so a total counted at one version is the total until the next.
 */
export const TRACKING_VERSION_KEY = 'lists.trackingDataVersion';
/** Totals kept per database; oldest first, so the first key is the one to drop. */
const COUNT_CACHE_SIZE = 500;
const countCaches = new WeakMap<Kysely<Database>, Map<string, number>>();

/** Global, not per operator: any operator's write bumps it, which only drops totals a little more often. */
const dataVersion = async (db: Kysely<Database>) =>
  (await runPrepared<{ value: string }>(db, VERSION_READ.statements(db, '', {}).version)).rows[0]?.value ?? '0';
/** Read twice by every filtered page: prepared (db/prepared.ts). */
const VERSION_READ = new PreparedReads((db) => ({ version: db.selectFrom('app_meta').select('value').where('key', '=', TRACKING_VERSION_KEY) }));

/** Counts being counted, per database and key: requests that want the same total wait for the one count. */
const countsInFlight = new WeakMap<Kysely<Database>, Map<string, Promise<number>>>();
/** Rowids per slice of a SQLite count: ~10 ms of scanning on this machine, so a request waits no longer than that. */
const COUNT_SLICE_ROWS = 10_000;

type ListStatements = Readonly<Record<'count' | 'page' | 'bounds', CompiledQuery<unknown>>>;

/**
 * The count of a filtered list, counted once per data version: a contains-filter matches no index, so
 * each count scans the table (120,000 plan rows: ~200 ms, when the page itself takes ~1 ms). The version
 * is read before and after counting, and a count is kept only if no write committed in between; it is
 * read from the database, so another instance's import is seen at once. Requests arriving while it is
 * counted share that count instead of each scanning the table (at 50 connections after an import, every
 * one of them did).
 */
async function countRows(db: Kysely<Database>, statements: ListStatements, statementsFor: (after: number, upTo: number) => ListStatements): Promise<number> {
  // The statement's parameters hold the operator (its scopedTo), so a total is kept per operator as well.
  const before = await dataVersion(db);
  const cache = countCaches.get(db) ?? new Map<string, number>();
  countCaches.set(db, cache);
  const key = `${before}\u0000${statements.count.sql}\u0000${JSON.stringify(statements.count.parameters)}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const flights = countsInFlight.get(db) ?? new Map<string, Promise<number>>();
  countsInFlight.set(db, flights);
  let flight = flights.get(key);
  if (!flight) {
    // The flight keeps the total before it lands, so a request whose version read answers late finds
    // either the flight or the kept total, never neither (on PostgreSQL the reads return out of order).
    const counting = async () => {
      const counted = await countInSlices(db, statements.bounds, (after, upTo) => statementsFor(after, upTo).count);
      if ((await dataVersion(db)) === before) {
        if (cache.size >= COUNT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
        cache.set(key, counted);
      }
      return counted;
    };
    flights.set(key, (flight = counting().finally(() => flights.delete(key))));
  }
  return flight;
}

/**
 * A count, on SQLite a slice of rowids at a time with a turn of the event loop between slices: better-sqlite3
 * runs a statement on the main thread, and one count over 120,000 rows held every other request for 200-600 ms
 * (the longest stall of bench/fairness.mjs). A write committing between slices changes the data version, so
 * such a total is answered but not kept. PostgreSQL counts in one statement, off the event loop already.
 */
async function countInSlices(
  db: Kysely<Database>,
  bounds: CompiledQuery<unknown>,
  countOf: (after: number, upTo: number) => CompiledQuery<unknown>,
): Promise<number> {
  const sliced = !(db.getExecutor().adapter instanceof PostgresAdapter);
  const totalOf = async (after: number, upTo: number) => Number((await runPrepared<{ total: number | string }>(db, countOf(after, upTo))).rows[0]?.total ?? 0);
  if (!sliced) return totalOf(0, 0);
  const { rows } = await runPrepared<{ low: number | null; high: number | null }>(db, bounds);
  const low = rows[0]?.low;
  const high = rows[0]?.high;
  if (low == null || high == null) return 0;
  let total = 0;
  for (let after = Number(low) - 1; after < Number(high); after += COUNT_SLICE_ROWS) {
    if (after >= Number(low)) await nextTurn();
    total += await totalOf(after, Math.min(Number(high), after + COUNT_SLICE_ROWS));
  }
  return total;
}

/**
 * Every row of a table in id order, a block at a time (keyset paging: constant cost per block, and
 * the same on both dialects), for exports and the sync.
 */
export async function* allRows<T>(db: Kysely<Database>, table: TableName, fields: readonly string[], blockSize = 5000): AsyncGenerator<T> {
  let after = -1;
  for (;;) {
    const { rows } = await sql<T & { id: number }>`select ${selection(['id', ...fields.filter((f) => f !== 'id')])} from ${sql.table(table)}
      where ${scopedTo(table)} and id > ${after} order by id limit ${blockSize}`.execute(db);
    for (const row of rows) yield row as Awaited<T>;
    const last = rows[rows.length - 1];
    if (!last || rows.length < blockSize) return;
    after = last.id;
  }
}

/** A data set's 'last update' stamp of the current operator (tracking_stamps, migration 0016), or null. */
export async function readStamp(db: Kysely<Database>, key: string): Promise<string | null> {
  const row = await db.selectFrom('tracking_stamps').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value ?? null;
}

/** Writes the current operator's stamp, and a new tracking data version with it (in the caller's transaction, when it gives one). */
export async function writeStamp(db: Kysely<Database>, key: string, value: string): Promise<void> {
  await db.deleteFrom('tracking_stamps').where('key', '=', key).execute();
  await db.insertInto('tracking_stamps').values({ key, value }).execute();
  // One statement, so two writers never both insert the first version.
  await sql`insert into app_meta (key, value) values (${TRACKING_VERSION_KEY}, '1')
    on conflict (key) do update set value = cast(cast(app_meta.value as integer) + 1 as text)`.execute(db);
}

/** Inserts rows given by field name (id included) into a tracking table, in batches; `fixed` fields have one value for every row. */
export class RowWriter extends BatchInsert {
  constructor(db: Kysely<Database>, table: TableName, fields: readonly string[], fixed: Record<string, unknown> = {}) {
    super(db, table, fields.map(columnOf), { keys: fields, fixed });
  }
}
