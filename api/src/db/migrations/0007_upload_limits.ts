// Frozen: a migration never imports application code, so later refactors cannot change history.
import type { Kysely } from 'kysely';

/**
 * Upload quota and expiry (docs/architecture.md#files-and-archives). An upload records when it was first used, so that the purge
 * keeps a used one only briefly and an unused one for a day; the purge finds old uploads and exports by
 * time alone, hence an index on each table's creation time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('file_uploads').addColumn('consumed_at', 'varchar(30)').execute();
  await db.schema.createIndex('file_uploads_created').on('file_uploads').column('created_at').execute();
  await db.schema.createIndex('file_exports_created').on('file_exports').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('file_exports_created').execute();
  await db.schema.dropIndex('file_uploads_created').execute();
  await db.schema.alterTable('file_uploads').dropColumn('consumed_at').execute();
}
