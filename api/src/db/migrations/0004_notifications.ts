// Frozen: a migration never imports application code, so later refactors cannot change history.
import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/**
 * Notifications, one row per recipient. `added_date` is ISO-8601 UTC text (fixed width, so text order
 * is time order) and `readed` is 0/1, like the other tables. The indexes serve the two reads: a user's
 * list newest first, and a user's unread ones.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (c: ColumnDefinitionBuilder) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('notifications')
    .addColumn('id', postgres ? 'serial' : 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'varchar(100)', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('added_date', 'varchar(30)', (c) => c.notNull())
    .addColumn('icon', 'varchar(10)', (c) => c.notNull())
    .addColumn('variant', 'varchar(20)', (c) => c.notNull())
    .addColumn('readed', 'integer', (c) => c.notNull().defaultTo(0))
    .addCheckConstraint('notifications_icon', sql`icon in ('info', 'warning', 'success', 'error')`)
    .addCheckConstraint('notifications_readed', sql`readed in (0, 1)`)
    .execute();
  await db.schema.createIndex('notifications_user_added').on('notifications').columns(['user_id', 'added_date', 'id']).execute();
  await db.schema.createIndex('notifications_user_readed').on('notifications').columns(['user_id', 'readed']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notifications').execute();
}
