// Frozen: a migration never imports application code, so later refactors cannot change history.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The overall site summary's statuses, kept per site (issue 44). The summary grouped every node of the
 * operator (and its PM verdict) on every request to rank its sites, and could not choose a page of ten
 * without building them all: at 50 connections it served a fifth of what a plain read serves. The parse
 * and the PM import write this table in the transaction that changes what it is made from
 * (api/src/monitoring/site-statuses.ts), so a read is one indexed page of it.
 *
 * Ranks per status: 3 NOK, 2 'Incomplete log', 1 OK, 0 N/A — the worst of a site's nodes wins.
 *
 * A site's current status is its first tracker row (`order by id limit 1` per site). On
 * (operator_id, local_id) SQLite walked the operator's whole tracker in id order for each site shown,
 * 1.1 of the summary query's 1.4 ms; with the id in the index it is one seek.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const text = postgres ? sql`text collate "C"` : sql`text`;
  await db.schema
    .createTable('monitoring_site_statuses')
    .addColumn('operator_id', 'integer', (c) => c.notNull())
    .addColumn('site', text, (c) => c.notNull())
    .addColumn('alarm', 'integer', (c) => c.notNull())
    .addColumn('radio', 'integer', (c) => c.notNull())
    .addColumn('core', 'integer', (c) => c.notNull())
    .addColumn('perf', 'integer', (c) => c.notNull())
    .addColumn('unreachable', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('monitoring_site_statuses_pk', ['operator_id', 'site'])
    .execute();
  const rank = (column: string) =>
    sql`max(case when ${sql.ref(column)} = 'NOK' then 3 when ${sql.ref(column)} = 'Incomplete log' then 2 when ${sql.ref(column)} = 'OK' then 1 else 0 end)`;
  await sql`insert into monitoring_site_statuses (operator_id, site, alarm, radio, core, perf, unreachable)
    select n.operator_id, coalesce(n.site_id, n.node_name), ${rank('n.alarm_status')}, ${rank('n.radio_status')}, ${rank('n.core_status')},
      ${rank('p.status')}, max(n.unreachable)
    from monitoring_nodes n left join monitoring_performance p on p.node_name = n.node_name and p.operator_id = n.operator_id
    group by n.operator_id, coalesce(n.site_id, n.node_name)`.execute(db);
  await sql`drop index if exists tracking_tracker_local_id`.execute(db);
  await db.schema.createIndex('tracking_tracker_local_id').on('tracking_tracker').columns(['operator_id', 'local_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists tracking_tracker_local_id`.execute(db);
  await db.schema.createIndex('tracking_tracker_local_id').on('tracking_tracker').columns(['operator_id', 'local_id']).execute();
  await db.schema.dropTable('monitoring_site_statuses').execute();
}
