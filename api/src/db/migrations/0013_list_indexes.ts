// Frozen: a migration never imports application code, so later refactors cannot change history.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Indexes for the big lists at a million rows (issue 17, bench/tables.mjs).
 *
 * Sorts: a list sorts by `case when <col> is null then 1 else 0 end, <col> <direction>, id` (nulls
 * last whatever the direction, then file order). An index on exactly those expressions hands the first
 * rows over in that order, so a page reads ten rows instead of sorting a million; one per direction,
 * since the tie-break stays ascending. Only for the sorts people use on these tables: each date column
 * the pages show newest or oldest first, and the alarms' default (newest first). Any other sort still
 * works, by a full scan.
 *
 * Contains-filters (`lower(col) like '%x%'`): no B-tree helps a pattern that starts with a wildcard.
 * On PostgreSQL, pg_trgm's GIN indexes on `lower(col)` do (for three characters or more), on the
 * columns people look a site or node up by; where the extension cannot be installed (not available,
 * no privilege) the lists work as before, by scanning. SQLite has no such index.
 */
const SORTS: ReadonlyArray<[table: string, column: string, name: string]> = [
  ['tracking_commissioning_plan', 'comm_date', 'tracking_commissioning_plan_comm_date'],
  ['tracking_tracker', 'comm_date', 'tracking_tracker_comm_date'],
  ['tracking_work_orders', 'wow_last_update', 'tracking_work_orders_last_update'],
  ['monitoring_alarms', 'alarm_at', 'monitoring_alarms_at'],
];

const TRIGRAMS: ReadonlyArray<[table: string, column: string, name: string]> = [
  ['tracking_commissioning_plan', 'local_id', 'tracking_commissioning_plan_local_id_trgm'],
  ['tracking_tracker', 'local_id', 'tracking_tracker_local_id_trgm'],
  ['tracking_work_orders', 'site_id', 'tracking_work_orders_site_id_trgm'],
  ['monitoring_alarms', 'node_name', 'monitoring_alarms_node_name_trgm'],
];

/** The schema pg_trgm lives in, installing it if it may be; null when it cannot be had. */
async function trigramSchema(db: Kysely<unknown>): Promise<string | null> {
  const installed = async () =>
    (
      await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
        where e.extname = 'pg_trgm'`.execute(db)
    ).rows[0]?.schema ?? null;
  const existing = await installed();
  if (existing) return existing;
  // Migrations run in one transaction on PostgreSQL: a refusal must not abort the rest.
  await sql`savepoint pg_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
    await sql`release savepoint pg_trgm`.execute(db);
  } catch {
    await sql`rollback to savepoint pg_trgm`.execute(db);
  }
  // Another database session may have installed it meanwhile.
  return installed();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const [table, column, name] of SORTS) {
    const nullsLast = sql`(case when ${sql.ref(column)} is null then 1 else 0 end)`;
    await sql`create index ${sql.id(`${name}_asc`)} on ${sql.table(table)} (${nullsLast}, ${sql.ref(column)} asc, id asc)`.execute(db);
    await sql`create index ${sql.id(`${name}_desc`)} on ${sql.table(table)} (${nullsLast}, ${sql.ref(column)} desc, id asc)`.execute(db);
  }
  if (!postgres) return;
  const schema = await trigramSchema(db);
  if (!schema) return;
  for (const [table, column, name] of TRIGRAMS)
    await sql`create index ${sql.id(name)} on ${sql.table(table)} using gin (lower(${sql.ref(column)}) ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [, , name] of TRIGRAMS) await db.schema.dropIndex(name).ifExists().execute();
  for (const [, , name] of SORTS) {
    await db.schema.dropIndex(`${name}_asc`).execute();
    await db.schema.dropIndex(`${name}_desc`).execute();
  }
}
