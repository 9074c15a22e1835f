// Frozen: a migration never imports application code, so later refactors cannot change history.
import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The live alarm console (issue 47).
 *
 * - `monitoring_alarm_changes`: per node, the alarms its latest log shows that the log before it did
 *   not ('new') and those the log before showed that the latest no longer does ('cleared'). A node's
 *   rows hold its latest log only, so the difference is kept when a log replaces them; each newer log of
 *   the node replaces its changes. Tenant data (docs/tenancy.md).
 * - `monitoring_digest_schedules`: one daily site-status digest per project, mailed at `hour` (UTC) to
 *   the listed users of the project's operator; `last_sent_on` (YYYY-MM-DD) is claimed by a conditional
 *   update, so several instances send it once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const text = postgres ? sql`text collate "C"` : sql`text`;
  await db.schema
    .createTable('monitoring_alarm_changes')
    .addColumn('operator_id', 'integer', (c) => c.notNull())
    .addColumn('node_name', text, (c) => c.notNull())
    .addColumn('site_id', text)
    .addColumn('alarm_key', text, (c) => c.notNull())
    .addColumn('change', 'varchar(10)', (c) => c.notNull())
    .addColumn('severity', 'varchar(20)', (c) => c.notNull())
    .addColumn('specific_problem', 'text', (c) => c.notNull())
    .addColumn('mo', 'text', (c) => c.notNull())
    .addColumn('alarm_at', 'varchar(40)')
    .addColumn('parse_id', 'integer', (c) => c.notNull())
    .addColumn('logs_at', 'varchar(40)')
    .addColumn('previous_logs_at', 'varchar(40)')
    .addPrimaryKeyConstraint('monitoring_alarm_changes_pk', ['operator_id', 'node_name', 'alarm_key'])
    .execute();
  await db.schema.createIndex('monitoring_alarm_changes_site').on('monitoring_alarm_changes').columns(['operator_id', 'site_id']).execute();
  await db.schema
    .createTable('monitoring_digest_schedules')
    .addColumn('operator_id', 'integer', (c) => c.notNull())
    .addColumn('project_id', 'integer', (c) => c.notNull())
    .addColumn('hour', 'integer', (c) => c.notNull())
    .addColumn('recipients', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('last_sent_on', 'varchar(10)')
    .addPrimaryKeyConstraint('monitoring_digest_schedules_pk', ['operator_id', 'project_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('monitoring_digest_schedules').execute();
  await db.schema.dropTable('monitoring_alarm_changes').execute();
}
