// Frozen: a migration never imports application code, so later refactors cannot change history.
import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/**
 * Operator pictures and the audit trail of the management area.
 *
 * Pictures (up to 10 MB each) get a table of their own: operator lists stay small, and the picture is
 * written in the same transaction as its operator, so nothing refers to a file that is not there.
 * `operators.avatar` becomes the picture's version (its upload time), which the browser uses to
 * refetch only what changed.
 *
 * The audit trail keeps the actor's e-mail as text, not a reference: it must outlive deleted users.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (c: ColumnDefinitionBuilder) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('operator_pictures')
    .addColumn('operator_id', 'integer', (c) => c.primaryKey().references('operators.id').onDelete('cascade'))
    .addColumn('png', postgres ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('audit_trail')
    .addColumn('id', postgres ? 'serial' : 'integer', id)
    .addColumn('at', 'varchar(30)', (c) => c.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('actor_email', 'varchar(254)', (c) => c.notNull())
    .addColumn('action', 'varchar(50)', (c) => c.notNull())
    .addColumn('entity', 'varchar(20)', (c) => c.notNull())
    .addColumn('entity_id', 'integer')
    .addColumn('summary', 'varchar(500)', (c) => c.notNull())
    .addColumn('address', 'varchar(64)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_trail_at').on('audit_trail').column('at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_trail').execute();
  await db.schema.dropTable('operator_pictures').execute();
}
