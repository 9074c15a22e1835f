// Frozen: a migration never imports application code, so later refactors cannot change history.
import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/**
 * Planning, validation and optimisation runs (docs/engines/planning.md#every-run): every run is a row of its history, with
 * who ran it, on what (sites, files, parameters), when, what it concluded (a verdict summary and the
 * first rows, shown on the page) and its workbook (kept under DATA_DIR/files/runs/, downloadable from
 * the history for as long as the run is kept).
 *
 * Frequency plans: which n78 block and which LTE carriers each operator owns, edited by Administrators.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const serial = (c: ColumnDefinitionBuilder) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('runs')
    .addColumn('id', postgres ? 'serial' : 'integer', serial)
    /** parameterPlanning, cpichValidation, nbrRelationsValidation, ranShareValidation, healthChecks, nbrRelationsOptimization. */
    .addColumn('kind', 'varchar(40)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    /** "Firstname Lastname" when it ran: the history still says who after the account is gone. */
    .addColumn('user_name', 'text', (c) => c.notNull())
    /** Site ids, comma-joined ('' when the run is not about sites). */
    .addColumn('sites', 'text', (c) => c.notNull())
    /** Uploaded files' names, comma-joined. */
    .addColumn('files', 'text', (c) => c.notNull())
    /** The run's own parameters (antenna, LTE bands…), JSON. */
    .addColumn('parameters', 'text', (c) => c.notNull())
    .addColumn('run_date', 'varchar(30)', (c) => c.notNull())
    .addColumn('job_id', 'varchar(64)')
    /** What the run said (§8 message), e.g. 'No relations to validate for site X.'. */
    .addColumn('message', 'text')
    /** Counts per verdict, JSON [{ label, count }]. */
    .addColumn('summary', 'text', (c) => c.notNull())
    /** The first rows of the main result, JSON { columns: [{ key, label }], rows, total }. */
    .addColumn('preview', 'text', (c) => c.notNull())
    /** Name of the workbook under files/runs/ (derived from the id), or null for runs without one. */
    .addColumn('stored_name', 'varchar(100)')
    /** Download name. */
    .addColumn('file_name', 'text')
    .execute();
  await db.schema.createIndex('runs_kind').on('runs').columns(['kind', 'run_date']).execute();

  await db.schema
    .createTable('frequency_plans')
    .addColumn('operator_id', 'integer', (c) => c.primaryKey().references('operators.id').onDelete('cascade'))
    /** n78 carrier: NR-ARFCN of the channel centre and the channel bandwidth (MHz). */
    .addColumn('nr_arfcn', 'integer', (c) => c.notNull())
    .addColumn('nr_bandwidth_mhz', 'integer', (c) => c.notNull())
    /** LTE carriers the operator owns, JSON { L700?: earfcnDl, L800?: …, L1800?: …, L2100?: … }. */
    .addColumn('lte_carriers', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('frequency_plans').execute();
  await db.schema.dropTable('runs').execute();
}
