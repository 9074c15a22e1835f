// Tables at scale: the biggest list tables (commissioning plan, tracker, work order status, alarms)
// filled with 1,000,000 rows each, then each list read through the real list functions (api/dist:
// tracking listRows, monitoring listAlarms) as the shared table asks: the first page, a sorted page
// and a page with two contains-filters. Prints p50/p99 of each, first on the schema as it was before
// migration 0016 made operators tenants, with every row in the first operator (one data set, as an
// installed console has after the upgrade; the list code of before 0016 no longer exists to run), then
// on the same rows spread across three operators (half, 30 %, 20 %) and read as the biggest one — the
// lists a user of that operator waits for (docs/tenancy.md).
// SQLite always; PostgreSQL too when BENCH_DATABASE_URL=postgres://… (a scratch schema, dropped
// afterwards). BENCH_TABLE_ROWS (default 1,000,000) and BENCH_TABLE_RUNS (calls per case, default 20)
// shorten a smoke run.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST = path.join(ROOT, 'api/dist');
const requireApi = createRequire(path.join(ROOT, 'api/package.json'));
const ROWS = Number(process.env.BENCH_TABLE_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_TABLE_RUNS ?? 20);
/** The last migration before operators became tenants: the baseline schema. */
const BEFORE = '0015_site_lookups';

if (!fs.existsSync(path.join(DIST, 'db/migrations/0016_operator_tenancy.js'))) {
  console.error('api/dist is missing or stale: build it first (cd api && npx tsc -p tsconfig.build.json)');
  process.exit(1);
}
const { Migrator, sql } = requireApi('kysely');
const { openDatabase } = requireApi(path.join(DIST, 'db/database.js'));
const { migrateToLatest } = requireApi(path.join(DIST, 'db/migrate.js'));
const { BatchInsert } = requireApi(path.join(DIST, 'db/batch-insert.js'));
const { runInOperator, runUnscoped } = requireApi(path.join(DIST, 'db/operator-scope.js'));
const { listRows } = requireApi(path.join(DIST, 'tracking/queries.js'));
const { COMMISSIONING_PLAN_TABLE, TRACKER_TABLE, WORK_ORDER_STATUS_TABLE } = requireApi(path.join(DIST, 'tracking/datasets.js'));
const { listAlarms } = requireApi(path.join(DIST, 'monitoring/queries.js'));

// ---- Rows like the real ones: a few thousand sites, repeated names, dates over three years, some blanks ----

let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = (list) => list[Math.floor(random() * list.length)];
const sometimes = (value, blank = 0.05) => (random() < blank ? null : value);
const SITES = Array.from({ length: 8000 }, (_, i) => `${pick(['LIS', 'OPO', 'FAR', 'BRG', 'COI'])}${String(10000 + i).padStart(5, '0')}`);
const PROJECTS = ['Fibre 2024', 'Swap Huawei', 'New 5G', 'Densification', 'RAN share', 'Indoor', 'Rural coverage', 'Capacity'];
const PEOPLE = ['Ana Silva', 'João Costa', 'Rui Santos', 'Marta Lopes', 'Pedro Alves', 'Inês Rocha', 'Tiago Neves'];
const TECHS = ['2G', '3G', '4G', '5G'];
const day = (offset) => new Date(Date.UTC(2023, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);
const instant = () => new Date(Date.UTC(2023, 0, 1) + Math.floor(random() * 3 * 365 * 86_400_000)).toISOString();

const TABLES = [
  {
    name: 'commissioning plan',
    table: 'tracking_commissioning_plan',
    row: (id) => {
      const site = pick(SITES);
      const date = sometimes(day(Math.floor(random() * 1100)));
      return {
        id,
        local_id: site,
        technology: pick(TECHS),
        equip_code: `EQ-${Math.floor(random() * 90000) + 10000}`,
        equip_name: `${site} ${pick(['Macro', 'Micro', 'Small cell'])}`,
        supplier: pick(['Ericsson', 'Huawei', 'Nokia']),
        work_type: pick(['New site', 'Swap', 'Upgrade', 'Expansion']),
        comm_date: date,
        week: date ? 1 + Math.floor(random() * 52) : null,
        mk_owner: pick(PEOPLE),
        imp_owner: pick(PEOPLE),
        bts_area: pick(['North', 'Centre', 'South', 'Lisbon', 'Islands']),
        bts_tech: pick(TECHS),
        project: pick(PROJECTS),
        comments: sometimes(`Waiting for ${pick(['power', 'transmission', 'permit', 'landlord', 'material'])}`, 0.6),
        stat_response: sometimes(pick(['OK', 'NOK', 'Pending']), 0.3),
        bss_tech: pick(PEOPLE),
        work_order: `WO${Math.floor(random() * 9_000_000) + 1_000_000}`,
        local_type: pick(['Rooftop', 'Greenfield', 'Indoor', 'Street']),
        last_update: instant(),
      };
    },
    list: (db, query) => listRows(db, COMMISSIONING_PLAN_TABLE, query),
    sorted: { sort: 'commDate', order: 'descend', page: 5 },
    unindexed: { sort: 'project', order: 'ascend', page: 5 },
    filters: { localId: 'lis12', project: 'fibre' },
  },
  {
    name: 'tracker',
    table: 'tracking_tracker',
    row: (id) => {
      const site = pick(SITES);
      return {
        id,
        local_id: site,
        equip_name: `${site} ${pick(['Macro', 'Micro'])}`,
        supplier: pick(['Ericsson', 'Huawei', 'Nokia']),
        comm_date: sometimes(day(Math.floor(random() * 1100))),
        mk_owner: pick(PEOPLE),
        imp_owner: pick(PEOPLE),
        project: pick(PROJECTS),
        comments: sometimes('Checked on site', 0.7),
        bss_tech: pick(PEOPLE),
        local_type: pick(['Rooftop', 'Greenfield', 'Indoor', 'Street']),
        schedule_status: pick(['On time', 'Delayed', 'Done']),
        date_entry: day(Math.floor(random() * 1100)),
        week: 1 + Math.floor(random() * 52),
        day_count: Math.floor(random() * 400),
        current_status: sometimes(pick(['Integrated', 'On air', 'Installed', 'Planned', 'Accepted']), 0.1),
        delivered_date: sometimes(day(Math.floor(random() * 1100)), 0.5),
        last_update: instant(),
      };
    },
    list: (db, query) => listRows(db, TRACKER_TABLE, query),
    sorted: { sort: 'commDate', order: 'ascend', page: 5 },
    unindexed: { sort: 'currentStatus', order: 'ascend', page: 5 },
    filters: { localId: 'opo1', scheduleStatus: 'delay' },
  },
  {
    name: 'work order status',
    table: 'tracking_work_orders',
    row: (id) => ({
      id,
      site_id: pick(SITES),
      wo_type: pick(['Installation', 'Integration', 'Acceptance', 'Survey', 'Civil works']),
      wo_id: `WO${Math.floor(random() * 9_000_000) + 1_000_000}`,
      wow_status: pick(['Open', 'Closed', 'In progress', 'Cancelled']),
      wow_close_date: sometimes(day(Math.floor(random() * 1100)), 0.4),
      wow_last_change: instant(),
      wow_last_update: instant(),
    }),
    list: (db, query) => listRows(db, WORK_ORDER_STATUS_TABLE, query),
    sorted: { sort: 'wowLastUpdate', order: 'descend', page: 5 },
    unindexed: { sort: 'woType', order: 'descend', page: 5 },
    filters: { siteId: 'far1', wowStatus: 'progress' },
  },
  {
    name: 'alarms',
    table: 'monitoring_alarms',
    row: (id) => {
      const site = pick(SITES);
      const node = `${site}_${pick(['L', 'N', 'G', 'U'])}${Math.floor(random() * 3)}`;
      const problem = pick(ALARM_NAMES);
      const mo = `ManagedElement=${node},ENodeBFunction=1,EUtranCellFDD=${node}${Math.floor(random() * 6)}`;
      const at = sometimes(instant(), 0.02);
      return {
        id,
        node_name: node,
        parse_id: 1,
        mo,
        mo_class: 'EUtranCellFDD',
        tech: pick(TECHS),
        cell: null,
        site_id: site,
        alarm_at: at,
        alarm_time: (at ?? '2024-01-01T00:00:00').slice(0, 19).replace('T', ' '),
        time_basis: 'UTC',
        severity: pick(['Critical', 'Major', 'Minor', 'Warning']),
        specific_problem: problem,
        info: `${problem} on ${mo}`,
        node_acknowledged: random() < 0.1 ? 1 : 0,
        node_operator: null,
        alarm_key: `${node}|${mo}|${problem}`,
        archive: 'logs.zip',
        file: `${node}.log`,
        line: Math.floor(random() * 5000),
      };
    },
    list: (db, query) => listAlarms(db, query),
    sorted: { sort: 'alarmDatetime', order: 'ascend', page: 5 },
    unindexed: { sort: 'severity', order: 'ascend', page: 5 },
    filters: { nodeName: 'lis11', AlarmName: 'link' },
  },
];
const ALARM_NAMES = [
  'Link Failure',
  'Heartbeat Failure',
  'Service Unavailable',
  'Sync Reference Not Reliable',
  'Resource Activation Timeout',
  'TN Link Degraded',
  'Power Supply Failure',
  'Temperature Exceptional',
  'Gps Sync Fault',
  'Cell Degraded',
];

// ---- Running ----

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function timeCase(db, table, query) {
  // One call before timing: the first touch of a page cache is not what a user waits for twice.
  const first = await table.list(db, query);
  const times = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    await table.list(db, query);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), total: first.total, rows: first.rows };
}

const CASES = [
  ['first page', () => ({ page: 1, size: 10 })],
  ['sorted page', (t) => ({ size: 10, ...t.sorted })],
  ['two contains-filters', (t) => ({ page: 1, size: 10, filters: JSON.stringify(t.filters) })],
  // No index serves a sort by any column: this one has none, for comparison.
  ['sorted by an unindexed column', (t) => ({ size: 10, ...t.unindexed })],
];

async function measure(db) {
  const results = new Map();
  for (const table of TABLES) for (const [name, query] of CASES) results.set(`${table.name}: ${name}`, await timeCase(db, table, query(table)));
  return results;
}

async function fill(db, table) {
  const sample = table.row(1);
  const writer = new BatchInsert(db, table.table, Object.keys(sample));
  for (let id = 1; id <= ROWS; id += 1) await writer.add(id === 1 ? sample : table.row(id));
  await writer.flush();
}

async function run(label, databaseUrl) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-bench-tables-'));
  const schema = databaseUrl ? `bench_tables_${process.pid}` : undefined;
  const pg = databaseUrl ? requireApi('pg') : null;
  const admin = async (statement) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  if (schema) await admin(`create schema ${schema}`);
  const handle = openDatabase({ databaseUrl, sqliteFile: path.join(dataDir, 'bench.sqlite'), ...(schema ? { pgSchema: schema } : {}) });
  try {
    const migrator = new Migrator({
      db: handle.db,
      provider: { getMigrations: async () => Object.fromEntries(await migrationsUpTo(BEFORE)) },
      ...(schema ? { migrationTableSchema: schema } : {}),
    });
    const { error } = await runUnscoped(() => migrator.migrateToLatest());
    if (error) throw error;
    console.log(`tables bench on ${label}: ${ROWS.toLocaleString('en')} rows in each of ${TABLES.length} tables, ${RUNS} calls per case`);
    const now = new Date().toISOString();
    for (const name of ['Operator A', 'Operator B', 'Operator C'])
      await sql`insert into operators (name, avatar, created_at) values (${name}, null, ${now})`.execute(handle.db);
    for (const table of TABLES) {
      const started = performance.now();
      await runUnscoped(() => fill(handle.db, table));
      console.log(`  filled ${table.table} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    // What PostgreSQL's autovacuum does on its own after a big insert (statistics, visibility map); the bench does not wait for it.
    if (schema) await sql`vacuum analyze ${sql.join(TABLES.map((t) => sql.table(t.table)))}`.execute(handle.db);
    const migrating = performance.now();
    await migrateToLatest(handle.db, schema);
    console.log(`  migration 0016 (operators as tenants) took ${((performance.now() - migrating) / 1000).toFixed(1)} s on the filled tables`);
    const { rows: ids } = await sql`select min(id) as id from operators`.execute(handle.db);
    // As an installed console after the upgrade: every row in the first operator, one data set as before.
    if (schema) await sql`vacuum analyze ${sql.join(TABLES.map((t) => sql.table(t.table)))}`.execute(handle.db);
    else await sql`analyze`.execute(handle.db);
    const before = await runInOperator(Number(ids[0].id), () => measure(handle.db));
    // Every row went to the first operator; 30 % and 20 % of them move to the other two.
    const { rows: operators } = await sql`select id from operators order by id`.execute(handle.db);
    const [first, second, third] = operators.map((o) => Number(o.id));
    await runUnscoped(async () => {
      for (const table of TABLES) {
        await sql`update ${sql.table(table.table)} set operator_id = ${second} where id % 10 in (5, 6, 7)`.execute(handle.db);
        await sql`update ${sql.table(table.table)} set operator_id = ${third} where id % 10 in (8, 9)`.execute(handle.db);
      }
    });
    // Rows moved behind the lists' back: a new tracking data version, so no total kept from before is reused.
    await sql`delete from app_meta where key = 'lists.trackingDataVersion'`.execute(handle.db);
    await sql`insert into app_meta (key, value) values ('lists.trackingDataVersion', '1000000')`.execute(handle.db);
    if (schema) await sql`vacuum analyze ${sql.join(TABLES.map((t) => sql.table(t.table)))}`.execute(handle.db);
    else await sql`analyze`.execute(handle.db);
    const after = await runInOperator(first, () => measure(handle.db));
    console.log(`  ${'case'.padEnd(42)} ${'one operator p50 / p99'.padStart(24)} ${'3 operators p50 / p99'.padStart(24)}   rows: before → after`);
    for (const [name, b] of before) {
      const a = after.get(name);
      const ms = (r) => `${r.p50.toFixed(1).padStart(8)} / ${r.p99.toFixed(1).padStart(8)} ms`;
      console.log(`  ${name.padEnd(42)} ${ms(b).padStart(24)} ${ms(a).padStart(24)}   ${b.total.toLocaleString('en')} → ${a.total.toLocaleString('en')}`);
    }
  } finally {
    await handle.close();
    if (schema) await admin(`drop schema ${schema} cascade`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The migrations as the server runs them, up to and including `last`. */
async function migrationsUpTo(last) {
  const folder = path.join(DIST, 'db/migrations');
  return fs
    .readdirSync(folder)
    .filter((f) => f.endsWith('.js'))
    .map((f) => f.replace(/\.js$/, ''))
    .filter((name) => name <= last)
    .sort()
    .map((name) => [name, requireApi(path.join(folder, `${name}.js`))]);
}

await run('SQLite', null);
if (process.env.BENCH_DATABASE_URL) await run('PostgreSQL', process.env.BENCH_DATABASE_URL);
else console.log('PostgreSQL run left out: set BENCH_DATABASE_URL=postgres://… to include it');
