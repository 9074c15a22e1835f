// Tables at scale: the biggest list tables (commissioning plan, tracker, work order status, alarms)
// filled with 1,000,000 rows each, spread across three operators (half, 30 %, 20 %), then each list read
// as the biggest operator through the real list functions (api/dist: tracking listRows, monitoring
// listAlarms) as the shared table asks: the first page, a sorted page, a page with two contains-filters
// and one sorted by an unindexed column — the lists a user of that operator waits for (docs/tenancy.md).
// Prints p50/p99 of each and its first call (the tracking lists keep a filtered total per data version:
// the first call counts it), then the verdicts of issue 48's goals at 1,000,000 rows across three
// operators — first page <= 20 ms, two contains-filters <= 100 ms (p50) — beside the machine's load.
// BENCH_TABLE_ONE_OPERATOR=1 measures every row in one operator first (one data set, as an installed
// console has after the upgrade to operators as tenants) and then moves half of them.
// The rows are written by the database itself (INSERT … SELECT over a recursive CTE, one transaction per
// table, indexes built afterwards) on the schema before the alarms' trigram index (migration 0021),
// which is then migrated on the filled tables, so its build at a million rows is timed too.
// SQLite always; PostgreSQL too when BENCH_DATABASE_URL=postgres://… (a scratch schema, dropped
// afterwards). BENCH_TABLE_ROWS (default 1,000,000), BENCH_TABLE_RUNS (calls per case, default 20; five for
// a case whose first call took over half a second) and BENCH_TABLE_ONLY (table names) shorten a run.
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
const ONE_OPERATOR = process.env.BENCH_TABLE_ONE_OPERATOR === '1';
/** BENCH_TABLE_ONLY=alarms,tracker: only those tables (by name, as printed), for a shorter run. */
const ONLY = (process.env.BENCH_TABLE_ONLY ?? '').split(',').filter(Boolean);
/** A case whose first call took longer than this is timed over fewer calls: its p50 is clear from five. */
const SLOW_CALL_MS = 500;
const SLOW_RUNS = 5;
/** The migration whose build on filled tables is timed: the rows are written on the schema before it. */
const TIMED_MIGRATION = '0021_alarm_trigrams';
const GOALS = { rows: 1_000_000, firstPageMs: 20, twoFiltersMs: 100 };

if (!fs.existsSync(path.join(DIST, `db/migrations/${TIMED_MIGRATION}.js`))) {
  console.error('api/dist is missing or stale: build it first (cd api && npx tsc -p tsconfig.build.json)');
  process.exit(1);
}
const { Migrator, sql } = requireApi('kysely');
const { openDatabase } = requireApi(path.join(DIST, 'db/database.js'));
const { MIGRATIONS, migrateToLatest } = requireApi(path.join(DIST, 'db/migrate.js'));
const { runInOperator, runUnscoped } = requireApi(path.join(DIST, 'db/operator-scope.js'));
const { listRows } = requireApi(path.join(DIST, 'tracking/queries.js'));
const { COMMISSIONING_PLAN_TABLE, TRACKER_TABLE, WORK_ORDER_STATUS_TABLE } = requireApi(path.join(DIST, 'tracking/datasets.js'));
const { listAlarms } = requireApi(path.join(DIST, 'monitoring/queries.js'));

// ---- Rows like the real ones: a few thousand sites, repeated names, dates over three years, some blanks ----
// Written as SQL over the row number `n.i`, the same on both dialects but for dates. Each column draws
// from its own multiplicative hash of the row number (the top bits of i × an odd constant mod 2^32), so
// a run's rows are the same every time and the columns do not move together.

const MULTIPLIERS = [
  2654435761, 2246822519, 3266489917, 668265263, 374761393, 3046201109, 1103515245, 2891336453, 1597334677, 3812015801, 2166136261, 1540483477, 2048144789,
  1181783497, 3432918353, 461845907,
];
/** Draw `k` of row `n.i`: an integer in 0 … 2^24 - 1. */
const draw = (k) => `(((n.i * ${MULTIPLIERS[k]} + ${k * 7919}) % 4294967296) / 256)`;
const quote = (text) => `'${text.replace(/'/g, "''")}'`;
const pick = (list, k) => `(case ${draw(k)} % ${list.length} ${list.map((v, i) => `when ${i} then ${quote(v)}`).join(' ')} end)`;
/** Null with probability `blank`, else `value`. */
const sometimes = (value, k, blank = 0.05) => `(case when ${draw(k)} % 1000 < ${Math.round(blank * 1000)} then null else ${value} end)`;
const PREFIXES = ['LIS', 'OPO', 'FAR', 'BRG', 'COI'];
/** One of 8,000 sites, each with its own prefix: LIS10000 … COI17999. */
const site = (k) =>
  `(case (${draw(k)} % 8000 * 7919 + 13) % 5 ${PREFIXES.map((p, i) => `when ${i} then ${quote(p)}`).join(' ')} end || cast(10000 + ${draw(k)} % 8000 as text))`;
const PROJECTS = ['Fibre 2024', 'Swap Huawei', 'New 5G', 'Densification', 'RAN share', 'Indoor', 'Rural coverage', 'Capacity'];
const PEOPLE = ['Ana Silva', 'João Costa', 'Rui Santos', 'Marta Lopes', 'Pedro Alves', 'Inês Rocha', 'Tiago Neves'];
const TECHS = ['2G', '3G', '4G', '5G'];
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
/** Dates (YYYY-MM-DD, days after 2023-01-01) and instants (ISO-8601 UTC, seconds after it), as the tables store them. */
const DIALECTS = {
  sqlite: {
    day: (days) => `date('2023-01-01', '+' || (${days}) || ' days')`,
    instant: (seconds) => `strftime('%Y-%m-%dT%H:%M:%S.000Z', 1672531200 + (${seconds}), 'unixepoch')`,
  },
  postgres: {
    day: (days) => `to_char(date '2023-01-01' + cast(${days} as integer), 'YYYY-MM-DD')`,
    instant: (seconds) => `to_char(to_timestamp(1672531200 + (${seconds})) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"')`,
  },
};
const THREE_YEARS = 3 * 365 * 86_400;

const ALL_TABLES = [
  {
    name: 'commissioning plan',
    table: 'tracking_commissioning_plan',
    columns: (d) => ({
      local_id: site(0),
      technology: pick(TECHS, 1),
      equip_code: `'EQ-' || cast(10000 + ${draw(2)} % 90000 as text)`,
      equip_name: `${site(0)} || ' ' || ${pick(['Macro', 'Micro', 'Small cell'], 3)}`,
      supplier: pick(['Ericsson', 'Huawei', 'Nokia'], 4),
      work_type: pick(['New site', 'Swap', 'Upgrade', 'Expansion'], 5),
      comm_date: sometimes(d.day(`${draw(6)} % 1100`), 7),
      week: sometimes(`1 + ${draw(8)} % 52`, 7),
      mk_owner: pick(PEOPLE, 9),
      imp_owner: pick(PEOPLE, 10),
      bts_area: pick(['North', 'Centre', 'South', 'Lisbon', 'Islands'], 11),
      bts_tech: pick(TECHS, 12),
      project: pick(PROJECTS, 13),
      comments: sometimes(`'Waiting for ' || ${pick(['power', 'transmission', 'permit', 'landlord', 'material'], 14)}`, 15, 0.6),
      stat_response: sometimes(pick(['OK', 'NOK', 'Pending'], 14), 11, 0.3),
      bss_tech: pick(PEOPLE, 15),
      work_order: `'WO' || cast(1000000 + ${draw(3)} * 7 % 9000000 as text)`,
      local_type: pick(['Rooftop', 'Greenfield', 'Indoor', 'Street'], 2),
      last_update: d.instant(`${draw(4)} * 5 % ${THREE_YEARS}`),
    }),
    list: (db, query) => listRows(db, COMMISSIONING_PLAN_TABLE, query),
    sorted: { sort: 'commDate', order: 'descend', page: 5 },
    unindexed: { sort: 'project', order: 'ascend', page: 5 },
    filters: { localId: 'lis12', project: 'fibre' },
  },
  {
    name: 'tracker',
    table: 'tracking_tracker',
    columns: (d) => ({
      local_id: site(0),
      equip_name: `${site(0)} || ' ' || ${pick(['Macro', 'Micro'], 3)}`,
      supplier: pick(['Ericsson', 'Huawei', 'Nokia'], 4),
      comm_date: sometimes(d.day(`${draw(6)} % 1100`), 7),
      mk_owner: pick(PEOPLE, 9),
      imp_owner: pick(PEOPLE, 10),
      project: pick(PROJECTS, 13),
      comments: sometimes(`'Checked on site'`, 15, 0.7),
      bss_tech: pick(PEOPLE, 15),
      local_type: pick(['Rooftop', 'Greenfield', 'Indoor', 'Street'], 2),
      schedule_status: pick(['On time', 'Delayed', 'Done'], 5),
      date_entry: d.day(`${draw(8)} % 1100`),
      week: `1 + ${draw(11)} % 52`,
      day_count: `${draw(12)} % 400`,
      current_status: sometimes(pick(['Integrated', 'On air', 'Installed', 'Planned', 'Accepted'], 14), 1, 0.1),
      delivered_date: sometimes(d.day(`${draw(2)} % 1100`), 14, 0.5),
      last_update: d.instant(`${draw(4)} * 5 % ${THREE_YEARS}`),
    }),
    list: (db, query) => listRows(db, TRACKER_TABLE, query),
    sorted: { sort: 'commDate', order: 'ascend', page: 5 },
    unindexed: { sort: 'currentStatus', order: 'ascend', page: 5 },
    filters: { localId: 'opo1', scheduleStatus: 'delay' },
  },
  {
    name: 'work order status',
    table: 'tracking_work_orders',
    columns: (d) => ({
      site_id: site(0),
      wo_type: pick(['Installation', 'Integration', 'Acceptance', 'Survey', 'Civil works'], 1),
      wo_id: `'WO' || cast(1000000 + ${draw(2)} * 7 % 9000000 as text)`,
      wow_status: pick(['Open', 'Closed', 'In progress', 'Cancelled'], 3),
      wow_close_date: sometimes(d.day(`${draw(4)} % 1100`), 5, 0.4),
      wow_last_change: d.instant(`${draw(6)} * 5 % ${THREE_YEARS}`),
      wow_last_update: d.instant(`${draw(7)} * 5 % ${THREE_YEARS}`),
    }),
    list: (db, query) => listRows(db, WORK_ORDER_STATUS_TABLE, query),
    sorted: { sort: 'wowLastUpdate', order: 'descend', page: 5 },
    unindexed: { sort: 'woType', order: 'descend', page: 5 },
    filters: { siteId: 'far1', wowStatus: 'progress' },
  },
  {
    name: 'alarms',
    table: 'monitoring_alarms',
    // Derived once per row, as the node is made from the site and the MO from the node.
    derived: (d) => ({
      site: site(0),
      node: `${site(0)} || '_' || ${pick(['L', 'N', 'G', 'U'], 1)} || cast(${draw(2)} % 3 as text)`,
      problem: pick(ALARM_NAMES, 3),
      at: sometimes(d.instant(`${draw(4)} * 5 % ${THREE_YEARS}`), 5, 0.02),
      cell: `cast(${draw(6)} % 6 as text)`,
    }),
    columns: () => ({
      node_name: 'n.node',
      parse_id: '1',
      mo: `'ManagedElement=' || n.node || ',ENodeBFunction=1,EUtranCellFDD=' || n.node || n.cell`,
      mo_class: `'EUtranCellFDD'`,
      tech: pick(TECHS, 7),
      cell: 'null',
      site_id: 'n.site',
      alarm_at: 'n.at',
      alarm_time: `replace(substr(coalesce(n.at, '2024-01-01T00:00:00'), 1, 19), 'T', ' ')`,
      time_basis: `'UTC'`,
      severity: pick(['Critical', 'Major', 'Minor', 'Warning'], 8),
      specific_problem: 'n.problem',
      info: `n.problem || ' on ManagedElement=' || n.node || ',ENodeBFunction=1,EUtranCellFDD=' || n.node || n.cell`,
      node_acknowledged: `case when ${draw(9)} % 10 = 0 then 1 else 0 end`,
      node_operator: 'null',
      alarm_key: `n.node || '|ManagedElement=' || n.node || ',ENodeBFunction=1,EUtranCellFDD=' || n.node || n.cell || '|' || n.problem`,
      archive: `'logs.zip'`,
      file: `n.node || '.log'`,
      line: `${draw(10)} % 5000`,
    }),
    list: (db, query) => listAlarms(db, query),
    sorted: { sort: 'alarmDatetime', order: 'ascend', page: 5 },
    unindexed: { sort: 'severity', order: 'ascend', page: 5 },
    filters: { nodeName: 'lis11', AlarmName: 'link' },
  },
];

const TABLES = ONLY.length > 0 ? ALL_TABLES.filter((t) => ONLY.includes(t.name)) : ALL_TABLES;

/** `insert into <table> … select` of ROWS generated rows (ids 1 … ROWS), each of the operator `operator` (SQL over `n.i`) says. */
function fillStatement(table, dialect, operator) {
  const d = DIALECTS[dialect];
  const columns = { id: 'n.i', operator_id: operator, ...table.columns(d) };
  const derived = table.derived?.(d);
  // The derived values' CTE takes the name n in the final select, so `n.i` is the row number either way.
  const rows = derived
    ? `, r as (select n.i, ${Object.entries(derived)
        .map(([name, expression]) => `${expression} as ${name}`)
        .join(', ')} from n) select ${Object.values(columns).join(', ')} from r as n`
    : ` select ${Object.values(columns).join(', ')} from n`;
  return `insert into ${table.table} (${Object.keys(columns).join(', ')})
    with recursive n(i) as (select cast(1 as bigint) union all select i + 1 from n where i < ${ROWS})${rows}`;
}

// ---- Running ----

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const load = () =>
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')} (1 / 5 / 15 min) on ${os.cpus().length} cores`;

async function timeCase(db, table, query) {
  // The first call is printed beside the rest: it counts a tracking list's filtered total, which later calls
  // reuse, and it touches the pages the case reads first. The p50 / p99 are of the calls after it.
  const started = performance.now();
  const first = await table.list(db, query);
  const firstMs = performance.now() - started;
  const times = [];
  // This process's CPU time per call as well (SQLite runs in it): on a loaded machine the wall time is
  // mostly the wait for a core, the CPU time is the work.
  const cpu = [];
  const runs = firstMs > SLOW_CALL_MS ? Math.min(RUNS, SLOW_RUNS) : RUNS;
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    await table.list(db, query);
    const used = process.cpuUsage(cpuBefore);
    times.push(performance.now() - started);
    cpu.push((used.user + used.system) / 1000);
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), cpu50: percentile(cpu, 50), firstMs, total: first.total, rows: first.rows };
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

/**
 * `work` on a table in one transaction with its indexes dropped and built again at the end. Row by row,
 * each index's random-order changes (site ids, alarm keys; every index leads with the operator, so a row
 * moving to another operator moves in each) missed SQLite's 2 MB page cache once the indexes outgrew it:
 * the fill of one table of a million rows took 517 s, 500 rows per commit. Building an index once from
 * every row is a sort.
 */
async function withIndexesRebuilt(db, table, dialect, work) {
  await db.transaction().execute(async (trx) => {
    const { rows: indexes } =
      dialect === 'postgres'
        ? await sql`select indexname as name, indexdef as sql from pg_indexes i where schemaname = current_schema() and tablename = ${table.table}
            and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`.execute(trx)
        : await sql`select name, sql from sqlite_master where type = 'index' and tbl_name = ${table.table} and sql is not null`.execute(trx);
    for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(trx);
    await work(trx);
    for (const index of indexes) await sql.raw(index.sql).execute(trx);
  });
}

const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

async function run(label, databaseUrl) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-bench-tables-'));
  const schema = databaseUrl ? `bench_tables_${process.pid}` : undefined;
  const dialect = databaseUrl ? 'postgres' : 'sqlite';
  const pg = databaseUrl ? requireApi('pg') : null;
  const admin = async (statement) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  if (schema) await admin(`create schema ${schema}`);
  const handle = openDatabase({ databaseUrl, sqliteFile: path.join(dataDir, 'bench.sqlite'), ...(schema ? { pgSchema: schema } : {}) });
  const analyze = () => (schema ? sql`vacuum analyze ${sql.join(TABLES.map((t) => sql.table(t.table)))}`.execute(handle.db) : sql`analyze`.execute(handle.db));
  try {
    const migrator = new Migrator({
      db: handle.db,
      provider: { getMigrations: async () => Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < TIMED_MIGRATION)) },
      ...(schema ? { migrationTableSchema: schema } : {}),
    });
    const { error } = await runUnscoped(() => migrator.migrateToLatest());
    if (error) throw error;
    console.log(`tables bench on ${label}: ${ROWS.toLocaleString('en')} rows in each of ${TABLES.length} tables, ${RUNS} calls per case; ${load()}`);
    const now = new Date().toISOString();
    for (const name of ['Operator A', 'Operator B', 'Operator C'])
      await sql`insert into operators (name, avatar, created_at) values (${name}, null, ${now})`.execute(handle.db);
    const { rows: operators } = await sql`select id from operators order by id`.execute(handle.db);
    const [first, second, third] = operators.map((o) => Number(o.id));
    // Spread across the three operators as the rows are written (half, 30 %, 20 %); with BENCH_TABLE_ONE_OPERATOR=1
    // every row is first the first operator's (as an installed console has them after the upgrade to
    // operators as tenants), measured so, then moved.
    const spread = `case when n.i % 10 in (5, 6, 7) then ${second} when n.i % 10 in (8, 9) then ${third} else ${first} end`;
    for (const table of TABLES) {
      const started = performance.now();
      const statement = fillStatement(table, dialect, ONE_OPERATOR ? String(first) : spread);
      await runUnscoped(() => withIndexesRebuilt(handle.db, table, dialect, (trx) => sql.raw(statement).execute(trx)));
      console.log(`  filled ${table.table} in ${seconds(started)}`);
    }
    // What PostgreSQL's autovacuum does on its own after a big insert (statistics, visibility map); the bench does not wait for it.
    if (schema) await analyze();
    const migrating = performance.now();
    await migrateToLatest(handle.db, schema);
    const applied = Object.keys(MIGRATIONS).filter((name) => name >= TIMED_MIGRATION);
    console.log(`  migrations ${applied.join(', ')} took ${seconds(migrating)} on the filled tables`);
    await analyze();
    let before = null;
    if (ONE_OPERATOR) {
      before = await runInOperator(first, () => measure(handle.db));
      const moving = performance.now();
      await runUnscoped(async () => {
        for (const table of TABLES)
          await withIndexesRebuilt(handle.db, table, dialect, async (trx) => {
            await sql`update ${sql.table(table.table)} set operator_id = ${second} where id % 10 in (5, 6, 7)`.execute(trx);
            await sql`update ${sql.table(table.table)} set operator_id = ${third} where id % 10 in (8, 9)`.execute(trx);
          });
      });
      // Rows moved behind the lists' back: a new tracking data version, so no total kept from before is reused.
      await sql`delete from app_meta where key = 'lists.trackingDataVersion'`.execute(handle.db);
      await sql`insert into app_meta (key, value) values ('lists.trackingDataVersion', '1000000')`.execute(handle.db);
      await analyze();
      console.log(`  moved half the rows to two other operators in ${seconds(moving)}`);
    }
    const after = await runInOperator(first, () => measure(handle.db));
    const ms = (value) => value.toFixed(1).padStart(8);
    const pair = (r) => `${ms(r.p50)} / ${ms(r.p99)} ms`.padStart(22);
    console.log(
      `  ${'case'.padEnd(42)} ${before ? `${'one operator p50 / p99'.padStart(22)} ` : ''}${'3 operators p50 / p99'.padStart(22)} ${'CPU p50'.padStart(11)} ${'first call'.padStart(11)}   rows`,
    );
    for (const [name, a] of after) {
      const b = before?.get(name);
      console.log(
        `  ${name.padEnd(42)} ${b ? `${pair(b)} ` : ''}${pair(a)} ${`${ms(a.cpu50)} ms`.padStart(11)} ${`${ms(a.firstMs)} ms`.padStart(11)}   ${b ? `${b.total.toLocaleString('en')} → ` : ''}${a.total.toLocaleString('en')}`,
      );
    }
    verdicts(label, after);
  } finally {
    await handle.close();
    if (schema) await admin(`drop schema ${schema} cascade`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Issue 48's goals for the lists, judged on the p50 of the three-operator run. */
function verdicts(label, after) {
  const scale = ROWS === GOALS.rows ? '' : ` (measured at ${ROWS.toLocaleString('en')} rows, not the goal's ${GOALS.rows.toLocaleString('en')}: no verdict)`;
  const subset = ONLY.length > 0 ? `, only ${TABLES.map((t) => t.name).join(', ')}` : '';
  console.log(`  goals on ${label}, ${GOALS.rows.toLocaleString('en')} rows across three operators, p50${subset}; ${load()}${scale}`);
  for (const [name, goal] of [
    ['first page', GOALS.firstPageMs],
    ['two contains-filters', GOALS.twoFiltersMs],
  ]) {
    const measured = TABLES.map((t) => [t.name, after.get(`${t.name}: ${name}`)]);
    const [worstTable, worst] = measured.reduce((a, b) => (b[1].p50 > a[1].p50 ? b : a));
    const verdict = scale ? 'not judged' : worst.p50 <= goal ? 'met' : 'NOT met';
    console.log(
      `    ${`${name} <= ${goal} ms:`.padEnd(32)} ${verdict}; slowest ${worstTable} ${worst.p50.toFixed(1)} ms, CPU ${worst.cpu50.toFixed(1)} ms (${measured.map(([t, r]) => `${t} ${r.p50.toFixed(1)}`).join(', ')})`,
    );
  }
}

await run('SQLite', null);
if (process.env.BENCH_DATABASE_URL) await run('PostgreSQL', process.env.BENCH_DATABASE_URL);
else console.log('PostgreSQL run left out: set BENCH_DATABASE_URL=postgres://… to include it');
