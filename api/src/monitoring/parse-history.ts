import { sql, type Kysely } from 'kysely';
import { PARSE_HISTORY_FIELDS, type ParseHistoryQuery, type ParseHistoryRow, type ParseReport } from 'contracts';
import { scopedTo } from '../db/operator-scope';
import type { Database } from '../db/schema';
import { containsPattern, dateFilterText, ListQueryError, parseFilters } from '../domain/tracking';

/** The parse history (Parser/GetParseHistory) and each parse's report (Parser/GetParseReport). */

const DEFAULT_PAGE_SIZE = 10;
const MAX_PAGE_SIZE = 100;

/** Each field as an expression over `monitoring_parses p left join users u`. */
const COLUMNS: Record<(typeof PARSE_HISTORY_FIELDS)[number], ReturnType<typeof sql>> = {
  id: sql`p.id`,
  parsedAt: sql`p.parsed_at`,
  parsedBy: sql`case when u.id is null then null else u.firstname || ' ' || u.lastname end`,
  archives: sql`p.archives`,
  logsDate: sql`p.logs_date`,
  files: sql`p.files`,
  parsed: sql`p.parsed`,
  unreachable: sql`p.unreachable`,
  notInInventory: sql`p.not_in_inventory`,
  failed: sql`p.failed`,
  problems: sql`p.problems`,
};
const NUMBER_FIELDS = new Set(['id', 'files', 'parsed', 'unreachable', 'notInInventory', 'failed', 'problems']);
const DATE_FIELDS = new Set(['parsedAt', 'logsDate']);

type Field = keyof typeof COLUMNS;
const isField = (f: string): f is Field => Object.prototype.hasOwnProperty.call(COLUMNS, f);

/** `["a.zip","b.zip"]` → `a.zip, b.zip` (the column keeps the JSON, so names with commas stay apart). */
function archivesText(json: string): string {
  try {
    const names: unknown = JSON.parse(json);
    return Array.isArray(names) ? names.map(String).join(', ') : json;
  } catch {
    return json;
  }
}

/** One page of parses: filtered ("contains", any case), sorted (newest first by default) and paged in SQL. */
export async function listParses(db: Kysely<Database>, query: ParseHistoryQuery): Promise<{ rows: ParseHistoryRow[]; total: number }> {
  const page = query.page ?? 1;
  const size = Math.min(query.size ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  const sortField = query.sort ?? 'parsedAt';
  if (!isField(sortField)) throw new ListQueryError(`Unknown sort field "${String(sortField).slice(0, 50)}".`);
  const filters = parseFilters(query.filters, PARSE_HISTORY_FIELDS).map(([field, needle]) => {
    const column = COLUMNS[field as Field];
    const text = NUMBER_FIELDS.has(field) ? sql`cast(${column} as text)` : column;
    return sql<boolean>`lower(${text}) like ${containsPattern(DATE_FIELDS.has(field) ? dateFilterText(needle) : needle)} escape '\\'`;
  });
  const where = sql`where ${sql.join([scopedTo('p'), ...filters], sql` and `)}`;
  const order = query.order ?? (query.sort === undefined ? 'descend' : 'ascend');
  const direction = order === 'descend' ? sql`desc` : sql`asc`;
  const sortColumn = COLUMNS[sortField];
  const from = sql`monitoring_parses p left join users u on u.id = p.parsed_by`;
  const select = sql.join(PARSE_HISTORY_FIELDS.map((f) => sql`${COLUMNS[f]} as ${sql.id(f)}`));
  const [count, rows] = await Promise.all([
    sql<{ total: number | string }>`select count(*) as total from ${from} ${where}`.execute(db),
    sql<ParseHistoryRow>`select ${select} from ${from} ${where}
      order by case when ${sortColumn} is null then 1 else 0 end, ${sortColumn} ${direction}, p.id ${direction}
      limit ${size} offset ${(page - 1) * size}`.execute(db),
  ]);
  return {
    rows: rows.rows.map((r) => ({
      ...r,
      id: Number(r.id),
      archives: archivesText(r.archives),
      files: Number(r.files),
      parsed: Number(r.parsed),
      unreachable: Number(r.unreachable),
      notInInventory: Number(r.notInInventory),
      failed: Number(r.failed),
      problems: Number(r.problems),
    })),
    total: Number(count.rows[0]?.total ?? 0),
  };
}

/** A parse's report as stored with it, or null. */
export async function readParseReport(db: Kysely<Database>, id: number): Promise<ParseReport | null> {
  const row = await db.selectFrom('monitoring_parses').select('report').where('id', '=', id).executeTakeFirst();
  return row ? (JSON.parse(row.report) as ParseReport) : null;
}
