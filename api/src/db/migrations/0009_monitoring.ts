// Frozen: a migration never imports application code, so later refactors cannot change history.
import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';

/**
 * Monitoring (docs/engines/amos.md#the-parse): what the MoBatch/AMOS logs said, per node, latest upload wins.
 *
 * - `monitoring_parses`: one row per parse run (the history): archives, counts, the per-file report.
 * - `monitoring_nodes`: one row per node whose log was ever parsed, replaced by each newer log of that
 *   node; it carries the node's computed statuses, so the summaries are plain reads.
 * - `monitoring_alarms`, `_states`, `_attributes`, `_ret`, `_findings`: the node's rows from its latest
 *   log, each with its source (archive, file, line). Replaced with the node.
 * - `monitoring_alarm_acks`: acknowledgements made in the console, keyed by the alarm's identity
 *   (node, MO, specific problem), so they survive a re-upload that still shows the alarm.
 * - `monitoring_alarm_hints`: the remediation catalogue (alarm name → hint), edited by Administrators.
 * - `monitoring_performance`: per node verdict from the last imported PM counters (TS 32.435).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // Text sorts byte-wise on both dialects (PostgreSQL would otherwise follow the database's locale).
  const text = postgres ? sql`text collate "C"` : sql`text`;
  const serial = (c: ColumnDefinitionBuilder) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement());
  const idType = postgres ? 'serial' : 'integer';
  const source = (t: CreateTableBuilder<string>) =>
    t
      .addColumn('archive', text, (c) => c.notNull())
      .addColumn('file', text, (c) => c.notNull())
      .addColumn('line', 'integer', (c) => c.notNull());
  /** A row that belongs to a node's latest log. */
  const nodeRows = (name: string) =>
    db.schema
      .createTable(name)
      .addColumn('id', idType, serial)
      .addColumn('node_name', text, (c) => c.notNull())
      .addColumn('parse_id', 'integer', (c) => c.notNull())
      .addColumn('mo', text, (c) => c.notNull())
      .addColumn('mo_class', text)
      .addColumn('tech', 'varchar(10)', (c) => c.notNull())
      .addColumn('cell', text);

  await db.schema
    .createTable('monitoring_parses')
    .addColumn('id', idType, serial)
    .addColumn('parsed_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('parsed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('job_id', 'varchar(64)')
    /** The archives' names, JSON array. */
    .addColumn('archives', 'text', (c) => c.notNull())
    .addColumn('logs_date', 'varchar(30)')
    .addColumn('files', 'integer', (c) => c.notNull())
    .addColumn('parsed', 'integer', (c) => c.notNull())
    .addColumn('unreachable', 'integer', (c) => c.notNull())
    .addColumn('not_in_inventory', 'integer', (c) => c.notNull())
    .addColumn('failed', 'integer', (c) => c.notNull())
    .addColumn('problems', 'integer', (c) => c.notNull())
    /** ParseReport JSON (contracts/monitoring.ts). */
    .addColumn('report', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('monitoring_parses_at').on('monitoring_parses').columns(['parsed_at']).execute();

  await source(
    db.schema
      .createTable('monitoring_nodes')
      .addColumn('node_name', text, (c) => c.primaryKey())
      /** From the inventory, else from the site rule; null when neither names one. */
      .addColumn('site_id', text)
      .addColumn('in_inventory', 'integer', (c) => c.notNull())
      /** Node technology: the inventory's, else the technologies its cells showed (e.g. "4G/5G"). */
      .addColumn('tech', 'varchar(20)')
      .addColumn('parse_id', 'integer', (c) => c.notNull())
      /** The log's first block header instant, ISO-8601 UTC. */
      .addColumn('logs_at', 'varchar(30)'),
  )
    .addColumn('unreachable', 'integer', (c) => c.notNull())
    .addColumn('unreachable_reason', 'text')
    .addColumn('problems', 'integer', (c) => c.notNull())
    .addColumn('alarm_status', 'varchar(10)', (c) => c.notNull())
    .addColumn('alarm_count', 'integer', (c) => c.notNull())
    .addColumn('alarm_comments', 'text', (c) => c.notNull())
    .addColumn('radio_status', 'varchar(10)', (c) => c.notNull())
    .addColumn('radio_comments', 'text', (c) => c.notNull())
    .addColumn('core_status', 'varchar(10)', (c) => c.notNull())
    .addColumn('core_comments', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('monitoring_nodes_site').on('monitoring_nodes').columns(['site_id']).execute();

  await source(
    nodeRows('monitoring_alarms')
      .addColumn('site_id', text)
      /** ISO-8601 UTC when known. */
      .addColumn('alarm_at', 'varchar(30)')
      /** As printed, `YYYY-MM-DD HH:MM:SS`, and whether the table said UTC or Local. */
      .addColumn('alarm_time', 'varchar(30)', (c) => c.notNull())
      .addColumn('time_basis', 'varchar(10)', (c) => c.notNull())
      .addColumn('severity', 'varchar(10)', (c) => c.notNull())
      .addColumn('specific_problem', text, (c) => c.notNull())
      .addColumn('info', 'text', (c) => c.notNull())
      /** Listed in the node's ACKNOWLEDGED ALARMS table, by `node_operator`. */
      .addColumn('node_acknowledged', 'integer', (c) => c.notNull())
      .addColumn('node_operator', 'text')
      /** node + MO + specific problem: what an acknowledgement in the console is attached to. */
      .addColumn('alarm_key', text, (c) => c.notNull()),
  ).execute();
  await db.schema.createIndex('monitoring_alarms_node').on('monitoring_alarms').columns(['node_name']).execute();
  await db.schema.createIndex('monitoring_alarms_site').on('monitoring_alarms').columns(['site_id']).execute();
  await db.schema.createIndex('monitoring_alarms_key').on('monitoring_alarms').columns(['alarm_key']).execute();

  await db.schema
    .createTable('monitoring_alarm_acks')
    .addColumn('alarm_key', text, (c) => c.primaryKey())
    .addColumn('node_name', text, (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('acked_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    /** Kept as written, so the note still says who after the account is gone. */
    .addColumn('acked_by_name', 'text', (c) => c.notNull())
    .addColumn('acked_at', 'varchar(30)', (c) => c.notNull())
    .execute();

  await source(
    nodeRows('monitoring_states')
      .addColumn('adm_state', 'varchar(20)')
      .addColumn('op_state', 'varchar(20)')
      /** S1, X2, Xn, NG, F1, Iub, Abis for termination points; null for cells and others. */
      .addColumn('link', 'varchar(10)'),
  ).execute();
  await db.schema.createIndex('monitoring_states_node').on('monitoring_states').columns(['node_name']).execute();

  await source(
    nodeRows('monitoring_attributes')
      .addColumn('attribute', text, (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull()),
  ).execute();
  await db.schema.createIndex('monitoring_attributes_node').on('monitoring_attributes').columns(['node_name']).execute();

  await source(
    db.schema
      .createTable('monitoring_ret')
      .addColumn('id', idType, serial)
      .addColumn('node_name', text, (c) => c.notNull())
      .addColumn('parse_id', 'integer', (c) => c.notNull())
      .addColumn('mo', text, (c) => c.notNull())
      .addColumn('antenna_unit_group', text)
      .addColumn('antenna_near_unit', text)
      .addColumn('ret_sub_unit', text)
      /** 0.1°, as the node reports them. */
      .addColumn('electrical_tilt', 'integer')
      .addColumn('max_tilt', 'integer')
      .addColumn('min_tilt', 'integer')
      .addColumn('operational_state', 'varchar(20)')
      .addColumn('user_label', 'text')
      .addColumn('serial_number', 'text'),
  ).execute();
  await db.schema.createIndex('monitoring_ret_node').on('monitoring_ret').columns(['node_name']).execute();

  /** One row per configuration check made on a node's latest log (radio and core), OK or NOK. */
  await source(
    nodeRows('monitoring_findings')
      /** 'radio' or 'core'. */
      .addColumn('area', 'varchar(10)', (c) => c.notNull())
      .addColumn('check_name', text, (c) => c.notNull())
      .addColumn('expected', 'text')
      .addColumn('actual', 'text')
      .addColumn('status', 'varchar(10)', (c) => c.notNull())
      .addColumn('comment', 'text', (c) => c.notNull()),
  ).execute();
  await db.schema.createIndex('monitoring_findings_node').on('monitoring_findings').columns(['node_name']).execute();

  await db.schema
    .createTable('monitoring_alarm_hints')
    .addColumn('alarm_name', text, (c) => c.primaryKey())
    .addColumn('hint', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('monitoring_performance')
    .addColumn('node_name', text, (c) => c.primaryKey())
    .addColumn('site_id', text)
    .addColumn('status', 'varchar(10)', (c) => c.notNull())
    .addColumn('comments', 'text', (c) => c.notNull())
    /** End of the newest granularity period read, ISO-8601 UTC. */
    .addColumn('measured_at', 'varchar(30)')
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('imported_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('monitoring_performance_site').on('monitoring_performance').columns(['site_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'monitoring_performance',
    'monitoring_alarm_hints',
    'monitoring_findings',
    'monitoring_ret',
    'monitoring_attributes',
    'monitoring_states',
    'monitoring_alarm_acks',
    'monitoring_alarms',
    'monitoring_nodes',
    'monitoring_parses',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
