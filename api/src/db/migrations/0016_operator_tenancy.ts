import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Operators become tenants of the engineering data (docs/tenancy.md). Every engineering table gains an
 * `operator_id`; a natural key (a node's name, a cell's DN, a site's id, an alarm key, a tracking row's
 * file-order id) becomes unique per operator, and every index leads with the operator so each
 * operator's lists stay as fast as the one global list was. Every row already stored goes to the first
 * operator, so an installed console loses nothing. Frozen: it names its tables and keys itself.
 */
const TABLES: ReadonlyArray<readonly [table: string, key: readonly string[] | null]> = [
  ['network_sites', ['id']],
  ['network_nodes', ['name']],
  ['network_cells', ['dn']],
  ['network_cell_alt_dns', ['alt_dn']],
  ['network_external_cells', ['dn']],
  ['network_relations', ['id']],
  // Serial ids stay global; the operator leads a new (operator_id, id) index instead.
  ['network_imports', null],
  ['monitoring_parses', null],
  ['monitoring_nodes', ['node_name']],
  ['monitoring_alarms', null],
  ['monitoring_alarm_acks', ['alarm_key']],
  ['monitoring_states', null],
  ['monitoring_attributes', null],
  ['monitoring_findings', null],
  ['monitoring_ret', null],
  ['monitoring_performance', ['node_name']],
  ['tracking_commissioning_plan', ['id']],
  ['tracking_tracker', ['id']],
  ['tracking_work_orders', ['id']],
  ['tracking_wo_delta', ['id']],
  ['runs', null],
];

/**
 * The 'last update' stamps, kept until now in app_meta for the one global data set: the tracking data
 * sets' and the PM counter import's (written by the same writeStamp).
 */
const STAMP_KEYS = [
  'tracking.commissioningPlan.importedAt',
  'tracking.tracker.updatedAt',
  'tracking.workOrderStatus.importedAt',
  'monitoring.performance.importedAt',
];

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function firstOperator(db: Kysely<unknown>): Promise<number | null> {
  const { rows } = await sql<{ id: number | null }>`select min(id) as id from operators`.execute(db);
  const id = rows[0]?.id;
  return id === null || id === undefined ? null : Number(id);
}

async function anyRows(db: Kysely<unknown>): Promise<boolean> {
  for (const [table] of TABLES) {
    const { rows } = await sql<{ one: number }>`select 1 as one from ${sql.table(table)} limit 1`.execute(db);
    if (rows.length > 0) return true;
  }
  return false;
}

/** Adds the operator first in an index's column list: `… ("a", "b")` → `… ("operator_id", "a", "b")`. */
function leadWithOperator(indexSql: string, table: string, postgres: boolean): string {
  const pattern = postgres ? /(USING \w+ \()/i : new RegExp(`(\\bon\\s+"?${table}"?\\s*\\()`, 'i');
  if (!pattern.test(indexSql)) throw new Error(`0016: cannot read the index definition ${indexSql}`);
  return indexSql.replace(pattern, postgres ? '$1operator_id, ' : '$1"operator_id", ');
}

async function sqliteTable(db: Kysely<unknown>, table: string, key: readonly string[] | null, operator: number): Promise<void> {
  const { rows: defs } = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = ${table}`.execute(db);
  const ddl = defs[0]?.sql;
  if (!ddl) throw new Error(`0016: table ${table} is missing`);
  const { rows: indexes } = await sql<{
    name: string;
    sql: string;
  }>`select name, sql from sqlite_master where type = 'index' and tbl_name = ${table} and sql is not null`.execute(db);
  const { rows: columns } = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db);
  const names = columns.map((c) => quoted(c.name)).join(', ');

  const head = new RegExp(`^CREATE TABLE\\s+"?${table}"?\\s*\\(`, 'i');
  if (!head.test(ddl)) throw new Error(`0016: cannot read the definition of ${table}`);
  let rebuilt = ddl.replace(head, `CREATE TABLE "${table}__tenant" ("operator_id" integer not null, `);
  if (key) {
    for (const column of key) {
      const inline = new RegExp(`("${column}"\\s+[^,]*?)\\s+primary key`, 'i');
      if (!inline.test(rebuilt)) throw new Error(`0016: ${table}.${column} is not its primary key`);
      rebuilt = rebuilt.replace(inline, '$1 not null');
    }
    rebuilt = rebuilt.replace(/\)\s*$/, `, primary key ("operator_id", ${key.map(quoted).join(', ')}))`);
  }
  await sql.raw(rebuilt).execute(db);
  await sql.raw(`insert into "${table}__tenant" ("operator_id", ${names}) select ${operator}, ${names} from ${quoted(table)}`).execute(db);
  await sql.raw(`drop table ${quoted(table)}`).execute(db);
  await sql.raw(`alter table "${table}__tenant" rename to ${quoted(table)}`).execute(db);
  for (const index of indexes) await sql.raw(leadWithOperator(index.sql, table, false)).execute(db);
  if (!key) await sql.raw(`create index "${table}_operator_id" on ${quoted(table)} ("operator_id", "id")`).execute(db);
}

async function postgresTable(db: Kysely<unknown>, table: string, key: readonly string[] | null, operator: number): Promise<void> {
  await sql.raw(`alter table ${quoted(table)} add column operator_id integer`).execute(db);
  await sql.raw(`update ${quoted(table)} set operator_id = ${operator}`).execute(db);
  await sql.raw(`alter table ${quoted(table)} alter column operator_id set not null`).execute(db);
  const { rows: indexes } = await sql<{ indexname: string; indexdef: string }>`
    select i.indexname, i.indexdef from pg_indexes i
    where i.schemaname = current_schema() and i.tablename = ${table}
      and not exists (select 1 from pg_constraint c where c.conname = i.indexname and c.contype = 'p')`.execute(db);
  if (key) {
    const { rows: pk } = await sql<{ conname: string }>`
      select c.conname from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_namespace n on n.oid = t.relnamespace
      where t.relname = ${table} and n.nspname = current_schema() and c.contype = 'p'`.execute(db);
    if (pk[0]) await sql.raw(`alter table ${quoted(table)} drop constraint ${quoted(pk[0].conname)}`).execute(db);
    await sql.raw(`alter table ${quoted(table)} add primary key (operator_id, ${key.map(quoted).join(', ')})`).execute(db);
  }
  for (const index of indexes) {
    // A trigram index (GIN/GiST, migration 0013) cannot lead with an integer without btree_gin: it stays
    // on its text alone, and the operator's rows come from the btree indexes that lead with it.
    if (/\bUSING (gin|gist)\b/i.test(index.indexdef)) continue;
    await sql.raw(`drop index ${quoted(index.indexname)}`).execute(db);
    await sql.raw(leadWithOperator(index.indexdef, table, true)).execute(db);
  }
  if (!key) await sql.raw(`create index ${quoted(`${table}_operator_id`)} on ${quoted(table)} (operator_id, id)`).execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  let operator = await firstOperator(db);
  if (operator === null && (await anyRows(db))) {
    // Data without any operator to own it: it gets one, rather than being dropped.
    await sql`insert into operators (name, avatar, created_at) values ('Default operator', null, ${new Date().toISOString()})`.execute(db);
    operator = await firstOperator(db);
  }
  // With no rows at all the value is never written; 1 keeps the statements valid.
  const owner = operator ?? 1;
  for (const [table, key] of TABLES) {
    if (postgres) await postgresTable(db, table, key, owner);
    else await sqliteTable(db, table, key, owner);
  }

  const text = postgres ? sql`text collate "C"` : sql`text`;
  // RAN sharing: a site of one operator (operator_id) shared with a partner (MORAN or MOCN).
  await db.schema
    .createTable('network_site_shares')
    .addColumn('operator_id', 'integer', (c) => c.notNull())
    .addColumn('site_id', text, (c) => c.notNull())
    .addColumn('partner_operator_id', 'integer', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('mode', 'varchar(10)', (c) => c.notNull())
    .addPrimaryKeyConstraint('network_site_shares_pk', ['operator_id', 'site_id', 'partner_operator_id'])
    .execute();
  await db.schema.createIndex('network_site_shares_partner').on('network_site_shares').columns(['partner_operator_id', 'site_id']).execute();

  await db.schema
    .createTable('tracking_stamps')
    .addColumn('operator_id', 'integer', (c) => c.notNull())
    .addColumn('key', 'varchar(100)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('tracking_stamps_pk', ['operator_id', 'key'])
    .execute();
  if (operator !== null) {
    for (const key of STAMP_KEYS) {
      await sql`insert into tracking_stamps (operator_id, key, value) select ${operator}, key, value from app_meta where key = ${key}`.execute(db);
    }
  }
  for (const key of STAMP_KEYS) await sql`delete from app_meta where key = ${key}`.execute(db);

  // Who ran a job and who got a notification stay per user; the operator they belong to is recorded
  // so a job runs in it and a notification opens in it.
  await db.schema.alterTable('jobs').addColumn('operator_id', 'integer').execute();
  await db.schema.alterTable('notifications').addColumn('operator_id', 'integer').execute();
}

export async function down(): Promise<void> {
  // Splitting the operators' data back into one global data set would merge rows of the same key: not done.
  throw new Error('0016_operator_tenancy cannot be undone');
}
