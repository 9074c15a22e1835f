// Frozen: a migration never imports application code, so later refactors cannot change history.
import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/**
 * Each user's settings of the shared tables (issue 16), kept on the server so they follow the user to
 * another browser: per table key, the columns' order, visibility and widths (`table_settings.columns`,
 * JSON [{ key, hidden, width }]), and named saved filters (`saved_filters.filters`, JSON { field: text }).
 * Both go with the user (cascade). Points in time are ISO-8601 UTC text, like the other tables.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const serial = (c: ColumnDefinitionBuilder) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('table_settings')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('table_key', 'varchar(100)', (c) => c.notNull())
    .addColumn('columns', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .addPrimaryKeyConstraint('table_settings_pk', ['user_id', 'table_key'])
    .execute();

  await db.schema
    .createTable('saved_filters')
    .addColumn('id', postgres ? 'serial' : 'integer', serial)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('table_key', 'varchar(100)', (c) => c.notNull())
    .addColumn('name', 'varchar(60)', (c) => c.notNull())
    .addColumn('filters', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .addUniqueConstraint('saved_filters_user_table_name', ['user_id', 'table_key', 'name'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('saved_filters').execute();
  await db.schema.dropTable('table_settings').execute();
}
