import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';
import { scopedTo } from './operator-scope';
import type { Database } from './schema';

/**
 * An FTS5 trigram table over some text columns of a list's keyed table, on SQLite (migration
 * 0021_alarm_trigrams): it finds the rows that may contain a text, any case, from an index instead of
 * reading every row. PostgreSQL's pg_trgm indexes serve the same filters on their own (0013).
 */
export interface TrigramIndex {
  /** The FTS5 table; its rowid is the keyed table's key. */
  table: string;
  /** Field → its column in the FTS5 table. */
  columns: Readonly<Record<string, string>>;
}

/** The trigram tokenizer indexes three characters at a time: a shorter text matches nothing in it. */
const SHORTEST_NEEDLE = 3;

/** `"text"` as an FTS5 string: in double quotes, a quote doubled, every other character as it is. */
export function trigramPhrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * An FTS5 query for the rows whose `column` holds every three-character piece of `text` (code points, as
 * the tokenizer counts them), or null when `text` is shorter. The index keeps no positions (detail=column),
 * so it cannot ask for the pieces in a row: it finds a superset, which the LIKE then narrows.
 */
export function trigramTerms(column: string, text: string): string | null {
  const characters = [...text];
  if (characters.length < SHORTEST_NEEDLE) return null;
  const pieces = new Set<string>();
  for (let i = 0; i + SHORTEST_NEEDLE <= characters.length; i += 1) pieces.add(characters.slice(i, i + SHORTEST_NEEDLE).join(''));
  return `${column} : (${[...pieces].map(trigramPhrase).join(' AND ')})`;
}

/**
 * `<key> in (rows of the trigram index that may contain every filter's text)`, for the filters on its
 * columns whose text it can look up (three characters or more), or null when there are none (or on
 * PostgreSQL). It only narrows: the list still applies each filter's LIKE to the rows left, so they are
 * exactly the rows it matched before. The tokenizer folds the case of every letter, LIKE only of ASCII
 * ones, so the index finds a superset: a row that contains the text up to ASCII case contains it up to
 * any case. The text looked up is the one the LIKE pattern is made of (lowered, unescaped).
 */
export function trigramNarrowing(
  db: Kysely<Database>,
  index: TrigramIndex | undefined,
  key: RawBuilder<unknown>,
  filters: ReadonlyArray<readonly [field: string, needle: string]>,
): RawBuilder<boolean> | null {
  if (!index || db.getExecutor().adapter instanceof PostgresAdapter) return null;
  const terms: string[] = [];
  for (const [field, needle] of filters) {
    const column = index.columns[field];
    const term = column === undefined ? null : trigramTerms(column, needle.toLowerCase());
    if (term) terms.push(term);
  }
  if (terms.length === 0) return null;
  // `t.<table>` is the FTS5 table's own hidden column, which MATCH takes; FTS5 reads `AND` in capitals only.
  // The index is tenant data like its table (docs/tenancy.md): its read is scoped too, on the operator it stores.
  return sql<boolean>`${key} in (select t.rowid from ${sql.table(index.table)} as t
    where ${sql.ref(`t.${index.table}`)} match ${terms.join(' AND ')} and ${scopedTo('t')})`;
}
