// Frozen: a migration never imports application code, so later refactors cannot change history.
import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/**
 * Reservations of planned NR cells (issue 46): a parameter planning run reserves every NR cell it plans
 * (NR-ARFCN, PCI, PRACH root, TAC, position, azimuth) so later plans choose around it, until a network
 * dump shows the cell or the plan is discarded. The operator's (docs/tenancy.md).
 *
 * `plan_key` ties a reservation to its run before the run is recorded (`run_id` is filled in then); a
 * cell name is reserved once per operator (the latest plan of a site supersedes the earlier one).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const serial = (c: ColumnDefinitionBuilder) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('planned_cells')
    .addColumn('id', postgres ? 'serial' : 'integer', serial)
    .addColumn('operator_id', 'integer', (c) => c.notNull())
    .addColumn('plan_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('run_id', 'integer', (c) => c.references('runs.id').onDelete('cascade'))
    .addColumn('site_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('cell_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('nr_arfcn', 'integer', (c) => c.notNull())
    .addColumn('pci', 'integer', (c) => c.notNull())
    .addColumn('prach_root', 'integer')
    .addColumn('tac', 'integer')
    .addColumn('lat', 'double precision', (c) => c.notNull())
    .addColumn('lon', 'double precision', (c) => c.notNull())
    .addColumn('azimuth', 'double precision')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('planned_cells_cell').unique().on('planned_cells').columns(['operator_id', 'cell_name']).execute();
  await db.schema.createIndex('planned_cells_run').on('planned_cells').columns(['operator_id', 'run_id']).execute();
  await db.schema.createIndex('planned_cells_plan').on('planned_cells').columns(['operator_id', 'plan_key']).execute();
  await db.schema.createIndex('planned_cells_site').on('planned_cells').columns(['operator_id', 'site_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('planned_cells').execute();
}
