// Frozen: a migration never imports application code, so later refactors cannot change history.
import { PostgresAdapter, sql, type CreateTableBuilder, type Kysely } from 'kysely';

/**
 * The file service (docs/architecture.md#files-and-archives) and tracking (docs/engines/tracking.md#rules-applied).
 *
 * Files: uploads and exports are recorded with their owner; ids are random and opaque, and the name on
 * disk derives from the id alone (the user's file name is only ever displayed).
 *
 * Tracking: four data sets, each replaced whole by an import or a sync. Row ids are assigned by the
 * importer (file order), so they are plain integers. Points in time are ISO-8601 UTC text, like the
 * other tables; the last-import stamps live in app_meta.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // Text sorts byte-wise on both dialects (PostgreSQL would otherwise follow the database's locale).
  const text = postgres ? sql`text collate "C"` : sql`text`;

  await db.schema
    .createTable('file_uploads')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('extension', 'varchar(10)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('file_uploads_user').on('file_uploads').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('file_exports')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(50)', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('stored_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('file_exports_user').on('file_exports').columns(['user_id', 'created_at']).execute();

  const table = (name: string, build: (t: CreateTableBuilder<string>) => CreateTableBuilder<string>) =>
    build(db.schema.createTable(name).addColumn('id', 'integer', (c) => c.primaryKey())).execute();
  const texts = (t: CreateTableBuilder<string>, names: string[]) => names.reduce((acc, n) => acc.addColumn(n, text), t);

  await table('tracking_commissioning_plan', (t) =>
    texts(
      t.addColumn('local_id', text, (c) => c.notNull()),
      ['technology', 'equip_code', 'equip_name', 'supplier', 'work_type'],
    )
      .addColumn('comm_date', 'varchar(30)')
      .addColumn('week', 'integer')
      .$call((b) => texts(b, ['mk_owner', 'imp_owner', 'bts_area', 'bts_tech', 'project', 'comments', 'stat_response', 'bss_tech', 'work_order', 'local_type']))
      .addColumn('last_update', 'varchar(30)'),
  );
  await table('tracking_tracker', (t) =>
    texts(
      t.addColumn('local_id', text, (c) => c.notNull()),
      ['equip_name', 'supplier'],
    )
      .addColumn('comm_date', 'varchar(30)')
      .$call((b) => texts(b, ['mk_owner', 'imp_owner', 'project', 'comments', 'bss_tech', 'local_type', 'schedule_status']))
      .addColumn('date_entry', 'varchar(30)')
      .addColumn('week', 'integer')
      .addColumn('day_count', 'integer')
      .addColumn('current_status', text)
      .addColumn('delivered_date', 'varchar(30)')
      .addColumn('last_update', 'varchar(30)'),
  );
  await table('tracking_work_orders', (t) =>
    texts(
      t.addColumn('site_id', text, (c) => c.notNull()),
      ['wo_type', 'wo_id', 'wow_status'],
    )
      .addColumn('wow_close_date', 'varchar(30)')
      .addColumn('wow_last_change', 'varchar(30)')
      .addColumn('wow_last_update', 'varchar(30)'),
  );
  await table('tracking_wo_delta', (t) =>
    texts(
      t.addColumn('site_id', text, (c) => c.notNull()),
      ['wo_type', 'wo_id', 'tracker_status', 'wow_status'],
    )
      .addColumn('wow_close_date', 'varchar(30)')
      .addColumn('wow_last_change', 'varchar(30)')
      .addColumn('tracker_last_update', 'varchar(30)')
      .addColumn('wow_last_update', 'varchar(30)')
      .addColumn('action', text, (c) => c.notNull()),
  );
  // The columns people look a site up by and sort on most; other sorts and substring filters scan,
  // which stays in the tens of milliseconds at 100,000 rows.
  await db.schema.createIndex('tracking_commissioning_plan_local_id').on('tracking_commissioning_plan').column('local_id').execute();
  await db.schema.createIndex('tracking_commissioning_plan_comm_date').on('tracking_commissioning_plan').column('comm_date').execute();
  await db.schema.createIndex('tracking_tracker_local_id').on('tracking_tracker').column('local_id').execute();
  await db.schema.createIndex('tracking_work_orders_site').on('tracking_work_orders').columns(['site_id', 'wo_type']).execute();
  await db.schema.createIndex('tracking_wo_delta_site').on('tracking_wo_delta').columns(['site_id', 'wo_type']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ['tracking_wo_delta', 'tracking_work_orders', 'tracking_tracker', 'tracking_commissioning_plan', 'file_exports', 'file_uploads']) {
    await db.schema.dropTable(name).execute();
  }
}
