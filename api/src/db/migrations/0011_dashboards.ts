// Frozen: a migration never imports application code, so later refactors cannot change history.
import { sql, type Kysely } from 'kysely';

/**
 * Dashboard records (docs/engines/monitoring.md#dashboards): which BI report a dashboard page embeds (type Tableau or PowerBI,
 * name, url) and on which configured BI server (`server_id`, an id from the environment such as
 * `powerbi`; null draws the console's own charts). Edited by Administrators; no token or secret is
 * ever stored here: embed tokens are minted per call.
 *
 * The rollout dashboard's record (id 2, specification §9) exists from the start, without a server, so a
 * fresh console shows the native charts until an Administrator points it at a report.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dashboards')
    // Ids are fixed by the specification (the rollout dashboard is 2), never generated.
    .addColumn('id', 'integer', (c) => c.primaryKey())
    /** Tableau or PowerBI. */
    .addColumn('type', 'varchar(20)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    /** Power BI: the report's embed URL (reportEmbed?reportId=…&groupId=…); Tableau: the view's URL; '' when none. */
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('server_id', 'varchar(100)')
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  await sql`insert into dashboards (id, type, name, url, server_id, updated_at, updated_by)
    values (2, 'PowerBI', 'Dashboard Rollout', '', null, ${now}, null)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dashboards').execute();
}
