import { PostgresAdapter, RawNode, sql, type Kysely, type OperationNode, type QueryResult, type RawBuilder } from 'kysely';
import { containsPattern, dateFilterText, ListQueryError, parseFilters } from '../domain/tracking';
import { scopedTo } from './operator-scope';
import { PreparedReads, runPrepared, slot } from './prepared';
import type { Database } from './schema';
import { trigramNarrowing, type TrigramIndex } from './trigrams';

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

/** Each placeholder's alias; the node's identity is what marks it. */
const TENANT_PLACEHOLDERS = new WeakMap<OperationNode, string>();

/**
 * `<alias>.operator_id = <the current operator>`, in a list source's SQL wherever the tenant table
 * `alias` needs it (a left join's ON, the WHERE of its FROM). Sources are built once, when the module
 * loads and no operator is known, so this is a placeholder: {@link listFrom} (and {@link scopedSql} for
 * a source's other readers) puts `scopedTo(alias)` in its place for the operator of each query, so every
 * list is scoped in this one place (docs/tenancy.md). A placeholder left in a statement is no scope, and
 * the operator scope refuses that statement, as it does any raw SQL naming a tenant table without one.
 */
export function tenantScope(alias: string): RawBuilder<boolean> {
  const placeholder = RawNode.createWithSql('1 = 0');
  TENANT_PLACEHOLDERS.set(placeholder, alias);
  return sql<boolean>`${{ toOperationNode: () => placeholder }}`;
}

function resolveScopes(node: OperationNode): OperationNode {
  const alias = TENANT_PLACEHOLDERS.get(node);
  if (alias !== undefined) return scopedTo(alias).toOperationNode();
  if (!RawNode.is(node)) return node;
  let changed = false;
  const parameters = node.parameters.map((parameter) => {
    const resolved = resolveScopes(parameter);
    if (resolved !== parameter) changed = true;
    return resolved;
  });
  return changed ? RawNode.create(node.sqlFragments, parameters) : node;
}

/** `raw` with every {@link tenantScope} in it scoped to the operator of the work in progress. */
export function scopedSql<T>(raw: RawBuilder<T>): RawBuilder<T> {
  const node = resolveScopes(raw.toOperationNode());
  return sql<T>`${{ toOperationNode: () => node }}`;
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
  /**
   * The fields that are read from one table alone: a page sorted, tie-broken and filtered on such fields
   * only is chosen on that table first, by key, and only its rows are built. Otherwise a sort that no
   * index serves builds every row (joins, computed fields) to keep ten: on a million alarms, a page
   * sorted by severity took 5.0 s that way and takes 0.57 s so.
   */
  keyed?: KeyedTable;
}

export interface KeyedTable {
  /** The table and its alias as `from` names them, e.g. `monitoring_alarms a`. */
  table: RawBuilder<unknown>;
  /** The field that identifies a row; one of `columns`. */
  key: string;
  /** Field → its expression over `table` alone. `from` selects them with {@link keyedColumns}, so both read the same. */
  columns: Readonly<Record<string, RawBuilder<unknown>>>;
  /** What every row of `table` meets besides the filters: its {@link tenantScope} when `table` is a tenant table itself. */
  where?: RawBuilder<boolean>;
  /** A trigram index over some of `columns` (SQLite), which narrows contains-filters on them before their LIKE. */
  trigrams?: TrigramIndex;
}

/**
 * A page chosen through the trigram index costs about one look-up per matching row; walking the sort
 * order instead reads about `rows needed × rows of the table / matching rows`. Below this many matching
 * rows per row needed, the index is cheaper; above it, the walk reads at most a hundredth of the table.
 */
const NARROWED_MATCHES_PER_ROW = 100;

/** `expression as "field", …` of a keyed table's columns, for the list's `from`. */
export function keyedColumns(columns: KeyedTable['columns']): RawBuilder<unknown> {
  return sql.join(Object.entries(columns).map(([field, expression]) => sql`${expression} as ${sql.ref(field)}`));
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

/** What decides a list statement's SQL text; the patterns, page and size are values of it. */
interface ListShape {
  sortField: string;
  order: 'ascend' | 'descend';
  /** The filtered fields, in the query's order. */
  filtered: readonly string[];
}

/** A value of the statement: its slot when the statement is prepared, else the value itself. */
type ValueOf = (name: string, value: unknown) => unknown;

/**
 * The statements of one page of `source`: the count, the page, and (only with `narrowing`) the page
 * chosen through the trigram index. Built with slots for a prepared shape ({@link PreparedReads}), or
 * with the values themselves when the trigram narrowing, whose look-up text is part of its SQL, applies.
 */
function listStatements(
  db: Kysely<Database>,
  source: ListSource,
  shape: ListShape,
  valueOf: ValueOf,
  patterns: readonly string[],
  narrowing: RawBuilder<boolean> | null,
) {
  const { sortField, order, filtered } = shape;
  const ties = source.tieBreak.filter((f) => f !== sortField);
  const size = valueOf('size', 0);
  const offset = valueOf('offset', 0);

  /** WHERE and ORDER BY over the fields as `field` names them. */
  const clauses = (field: (name: string) => RawBuilder<unknown>, always?: RawBuilder<boolean>, narrowed?: RawBuilder<boolean>) => {
    const matches = filtered.map((name, i) => {
      const text = source.numberFields.has(name) ? sql`cast(${field(name)} as text)` : field(name);
      return containsMatch(db, text, valueOf(`f${i}`, patterns[i]) as string);
    });
    if (narrowed) matches.unshift(narrowed);
    if (always) matches.unshift(always);
    const where = matches.length > 0 ? sql`where ${sql.join(matches, sql` and `)}` : sql``;
    const direction = order === 'descend' ? sql`desc` : sql`asc`;
    const tieOrder = ties.map((f) => sql`${field(f)} asc`);
    const orderBy = sql`order by case when ${field(sortField)} is null then 1 else 0 end, ${field(sortField)} ${direction}${
      tieOrder.length > 0 ? sql`, ${sql.join(tieOrder)}` : sql``
    }`;
    return { where, orderBy };
  };

  const from = sql`(${source.from}) as q`;
  const outer = clauses(column);
  const fields = sql.join(source.fields.map((f) => column(f)));
  const keyed = onKeyedTable(source, shape);
  if (keyed) {
    const inner = clauses((name) => keyed.columns[name]!, keyed.where);
    const narrowed = narrowing ? clauses((name) => keyed.columns[name]!, keyed.where, narrowing) : inner;
    const page = (chosenBy: typeof inner) =>
      scopedSql(
        sql`select ${fields} from ${from} where ${column(keyed.key)} in (select ${keyed.columns[keyed.key]!} from ${keyed.table} ${chosenBy.where} ${chosenBy.orderBy} limit ${size} offset ${offset}) ${outer.orderBy}`,
      );
    const counted =
      filtered.length === 0 && source.countFrom
        ? sql`select count(*) as total from (${source.countFrom}) as q`
        : sql`select count(*) as total from ${keyed.table} ${narrowed.where}`;
    return { count: scopedSql(counted), page: page(inner), ...(narrowing ? { narrowedPage: page(narrowed) } : {}) };
  }
  const counted = filtered.length === 0 && source.countFrom ? sql`(${source.countFrom}) as q` : from;
  return {
    count: scopedSql(sql`select count(*) as total from ${counted} ${outer.where}`),
    page: scopedSql(sql`select ${fields} from ${from} ${outer.where} ${outer.orderBy} limit ${size} offset ${offset}`),
  };
}

/** The keyed table when the page can be chosen on it alone: sort, ties and filters are all its fields. */
function onKeyedTable(source: ListSource, { sortField, filtered }: ListShape): KeyedTable | undefined {
  const keyed = source.keyed;
  const ties = source.tieBreak.filter((f) => f !== sortField);
  return keyed !== undefined && [sortField, ...ties, ...filtered].every((f) => Object.hasOwn(keyed.columns, f)) ? keyed : undefined;
}

/** Each source's statements, prepared per shape (sort, order, filtered fields). */
const PREPARED = new WeakMap<ListSource, PreparedReads<'count' | 'page'>>();
const SHAPE_SEPARATOR = '\u0000';

function preparedOf(source: ListSource): PreparedReads<'count' | 'page'> {
  let prepared = PREPARED.get(source);
  if (!prepared) {
    prepared = new PreparedReads((db, shapeKey) => {
      const [sortField, order, ...filtered] = shapeKey.split(SHAPE_SEPARATOR);
      const shape = { sortField: sortField!, order: order as ListShape['order'], filtered };
      const { count, page } = listStatements(db, source, shape, (name) => slot(name), [], null);
      return { count, page };
    });
    PREPARED.set(source, prepared);
  }
  return prepared;
}

const totalOf = (result: QueryResult<unknown>) => Number((result.rows[0] as { total?: number | string } | undefined)?.total ?? 0);

export async function listFrom<T>(db: Kysely<Database>, source: ListSource, query: ListQuery): Promise<{ rows: T[]; total: number }> {
  const page = query.page ?? 1;
  const size = Math.min(query.size ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  const offset = (page - 1) * size;
  const sortField = query.sort ?? source.defaultSort;
  if (!source.fields.includes(sortField)) throw new ListQueryError(`Unknown sort field "${sortField.slice(0, 50)}".`);
  const filters = parseFilters(query.filters, source.fields);
  const order = query.order ?? (query.sort === undefined ? source.defaultOrder : 'ascend');
  const shape: ListShape = { sortField, order, filtered: filters.map(([name]) => name) };
  const patterns = filters.map(([name, needle]) => containsPattern(source.dateFields.has(name) ? dateFilterText(needle) : needle));
  const values: Record<string, unknown> = { size, offset };
  patterns.forEach((pattern, i) => (values[`f${i}`] = pattern));

  const keyed = onKeyedTable(source, shape);
  const narrowing = keyed ? trigramNarrowing(db, keyed.trigrams, keyed.columns[keyed.key]!, filters) : null;
  if (narrowing) {
    // The look-up text is part of the narrowing's SQL: built for this query alone.
    const built = listStatements(db, source, shape, (name) => values[name], patterns, narrowing);
    // Counted first: how many rows match decides which way the page is chosen (NARROWED_MATCHES_PER_ROW).
    const total = totalOf(await built.count.execute(db));
    const rows = await (total <= NARROWED_MATCHES_PER_ROW * (offset + size) ? built.narrowedPage! : built.page).execute(db);
    return { rows: rows.rows as T[], total };
  }
  const statements = preparedOf(source).statements(db, [sortField, order, ...shape.filtered].join(SHAPE_SEPARATOR), values);
  const [count, rows] = await Promise.all([runPrepared(db, statements.count), runPrepared<T>(db, statements.page)]);
  return { rows: rows.rows, total: totalOf(count) };
}
