// Frozen: a migration never imports application code, so later refactors cannot change history.
import type { Kysely } from 'kysely';

/**
 * Jobs (docs/architecture.md#how-a-job-flows): every piece of long work is a row, so its history survives restarts and reads the
 * same on SQLite and PostgreSQL. Parameters and results are JSON text; points in time ISO-8601 UTC text.
 * `instance_id` and `heartbeat_at` tell a live run from one whose process died.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(60)', (c) => c.notNull())
    .addColumn('owner_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('state', 'varchar(12)', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('progress_text', 'text')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('started_at', 'varchar(30)')
    .addColumn('finished_at', 'varchar(30)')
    .addColumn('result', 'text')
    .addColumn('error', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('instance_id', 'varchar(64)')
    .addColumn('heartbeat_at', 'varchar(30)')
    .execute();
  await db.schema.createIndex('jobs_created').on('jobs').columns(['created_at']).execute();
  await db.schema.createIndex('jobs_state').on('jobs').columns(['state', 'created_at']).execute();
  await db.schema.createIndex('jobs_owner').on('jobs').columns(['owner_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('jobs').execute();
}
