// Frozen: a migration never imports application code, so later refactors cannot change history.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Logs cut short (issue 43): a node whose new log stops inside its alarm or `st` table keeps the rows
 * its previous log gave, marked stale, and its status says 'Incomplete log' until a complete log comes.
 *
 * - `monitoring_alarms.stale`, `monitoring_states.stale`: 1 on rows kept from an older log because the
 *   newest one could not be read whole; 0 otherwise.
 * - The three status columns of `monitoring_nodes` were `varchar(10)` (OK, NOK, N/A): 'Incomplete log'
 *   needs 14. SQLite does not enforce a varchar length; PostgreSQL's columns are widened.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['monitoring_alarms', 'monitoring_states']) {
    await db.schema
      .alterTable(table)
      .addColumn('stale', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const column of ['alarm_status', 'radio_status', 'core_status']) {
      await sql`alter table monitoring_nodes alter column ${sql.ref(column)} type varchar(20)`.execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const column of ['alarm_status', 'radio_status', 'core_status']) {
      await sql`update monitoring_nodes set ${sql.ref(column)} = 'N/A' where length(${sql.ref(column)}) > 10`.execute(db);
      await sql`alter table monitoring_nodes alter column ${sql.ref(column)} type varchar(10)`.execute(db);
    }
  }
  for (const table of ['monitoring_alarms', 'monitoring_states']) await db.schema.alterTable(table).dropColumn('stale').execute();
}
