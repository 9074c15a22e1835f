import { sql, type Kysely, type RawBuilder } from 'kysely';
import { currentOperatorId } from '../db/operator-scope';
import type { Database } from '../db/schema';
import { CELL_TECHS, EXTERNAL_CELL_KINDS, RELATION_KINDS, emptyCounts, type NetworkCounts } from '../domain/network';

/** Specification §5: site selection autocomplete is limited to 20 options. */
export const SITE_OPTIONS_LIMIT = 20;

export interface SiteOption {
  value: string;
  text: string;
}

export interface NetworkSummary extends NetworkCounts {
  /** ISO-8601 UTC of the last import; null when nothing was imported. */
  importedAt: string | null;
}

function isOneOf<K extends string>(keys: readonly K[], value: string): value is K {
  return (keys as readonly string[]).includes(value);
}

/** What the network tables hold, counted row by row (PostgreSQL answers count(*) as text, hence Number()). */
export async function countStored(db: Kysely<Database>): Promise<NetworkCounts> {
  const counts = emptyCounts();
  // The operator's own inventory: sites a partner shares with it are read beside its own, but are the partner's.
  const own = currentOperatorId();
  let sites = db.selectFrom('network_sites').select((eb) => eb.fn.countAll<number | string>().as('n'));
  if (own !== undefined) sites = sites.where('operator_id', '=', own ?? -1);
  counts.sites = Number((await sites.executeTakeFirstOrThrow()).n);
  counts.nodes = Number(
    (
      await db
        .selectFrom('network_nodes')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

  const cells = await db
    .selectFrom('network_cells')
    .select((eb) => ['tech', eb.fn.countAll<number | string>().as('n')])
    .groupBy('tech')
    .execute();
  for (const row of cells) if (isOneOf(CELL_TECHS, row.tech)) counts.cells[row.tech] = Number(row.n);

  const externals = await db
    .selectFrom('network_external_cells')
    .select((eb) => ['kind', eb.fn.countAll<number | string>().as('n')])
    .groupBy('kind')
    .execute();
  for (const row of externals) if (isOneOf(EXTERNAL_CELL_KINDS, row.kind)) counts.externalCells[row.kind] = Number(row.n);

  const relations = await db
    .selectFrom('network_relations')
    .select((eb) => ['kind', eb.fn.countAll<number | string>().as('n')])
    .groupBy('kind')
    .execute();
  for (const row of relations) if (isOneOf(RELATION_KINDS, row.kind)) counts.relations[row.kind] = Number(row.n);
  return counts;
}

/** Sites listed in an import answer: enough to see a wrong site rule, short enough to read. */
export const LARGEST_SITES = 5;

/** How many nodes stand on a site, and the sites with the most (ties by id, so the answer is stable). */
export async function nodesPerSite(
  db: Kysely<Database>,
  limit = LARGEST_SITES,
): Promise<{ nodesOnSites: number; largest: Array<{ siteId: string; nodes: number }> }> {
  const placed = await db
    .selectFrom('network_nodes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('site_id', 'is not', null)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('network_nodes')
    .select((eb) => ['site_id', eb.fn.countAll<number | string>().as('n')])
    .where('site_id', 'is not', null)
    .groupBy('site_id')
    .orderBy('n', 'desc')
    .orderBy('site_id')
    .limit(limit)
    .execute();
  return { nodesOnSites: Number(placed.n), largest: rows.map((r) => ({ siteId: r.site_id as string, nodes: Number(r.n) })) };
}

/** ISO-8601 UTC of the last successful import, or null when there was none. */
export async function lastImportDate(db: Kysely<Database>): Promise<string | null> {
  const row = await db.selectFrom('network_imports').select('imported_at').orderBy('imported_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row?.imported_at ?? null;
}

/** Counts from the stored rows (not from the import record), so the answer shows what the database really holds. */
export async function getNetworkSummary(db: Kysely<Database>): Promise<NetworkSummary> {
  const counts = await countStored(db);
  return { ...counts, importedAt: await lastImportDate(db) };
}

/**
 * Sites shared with the operator (RAN sharing) are read beside its own, and a partner's site may carry
 * the id of one of the operator's own: one row per site id, the operator's own first, so a list never
 * shows a site twice. `rows` must be ordered by id.
 */
export function onePerSiteId<T extends { id: string; operator_id: number }>(rows: readonly T[]): T[] {
  const own = currentOperatorId();
  const kept: T[] = [];
  for (const row of rows) {
    const last = kept[kept.length - 1];
    if (last?.id !== row.id) kept.push(row);
    else if (row.operator_id === own && last.operator_id !== own) kept[kept.length - 1] = row;
  }
  return kept;
}

/** Orders a site's own row before a partner's shared one of the same id (see onePerSiteId). */
export function ownSiteFirst(): RawBuilder<number> {
  return sql<number>`case when ${sql.ref('operator_id')} = ${currentOperatorId() ?? -1} then 0 else 1 end`;
}

/** The user's text as a LIKE pattern that matches it literally (with `\` as the escape character). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export interface SiteOptionsFilter {
  /** Typed text: matches the site id or name, case-insensitively, anywhere in it. */
  query?: string | undefined;
  /** Only sites with 3G cells (UTRAN validations). */
  utranOnly?: boolean;
  /** Only sites recorded as shared that the current operator is a party to (the RAN-share picker). */
  sharedOnly?: boolean;
}

/** Options for the site selects: value = site id, text = "id – name", sorted by id, at most 20. */
export async function findSiteOptions(db: Kysely<Database>, filter: SiteOptionsFilter = {}): Promise<SiteOption[]> {
  // One option per site id: a partner's shared site may carry the id of one of the operator's own (whose name wins).
  const own = currentOperatorId() ?? -1;
  let query = db
    .selectFrom('network_sites')
    .select((eb) => [
      'id',
      sql<string>`coalesce(max(case when ${eb.ref('operator_id')} = ${own} then ${eb.ref('name')} end), min(${eb.ref('name')}))`.as('name'),
    ])
    .groupBy('id')
    .orderBy('id')
    .limit(SITE_OPTIONS_LIMIT);
  const typed = filter.query?.trim() ?? '';
  if (typed !== '') {
    const pattern = `%${escapeLike(typed.toLowerCase())}%`;
    query = query.where((eb) =>
      eb.or([sql<boolean>`lower(${eb.ref('id')}) like ${pattern} escape '\\'`, sql<boolean>`lower(${eb.ref('name')}) like ${pattern} escape '\\'`]),
    );
  }
  if (filter.utranOnly) {
    query = query.where('id', 'in', (eb) => eb.selectFrom('network_cells').select('site_id').where('tech', '=', '3G'));
  }
  // The share rows the operator may see are those it is a party to (the operator scope).
  if (filter.sharedOnly) query = query.where('id', 'in', (eb) => eb.selectFrom('network_site_shares').select('site_id'));
  const rows = await query.execute();
  return rows.map((r) => ({ value: r.id, text: `${r.id} – ${r.name}` }));
}
