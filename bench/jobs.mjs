// Jobs off the request path (issue 12): how fast the console answers while a 100,000-row commissioning
// plan import runs, next to the same call on an idle server — p50/p99 of account/GetUserInfo, on SQLite
// and, when DATABASE_URL is set, PostgreSQL — and the import's rows/s as a job (worker thread, staging
// table) next to the importer called in this process the way the request used to call it. The server is
// the built API on a loopback port with its own DATA_DIR; loops are bounded; asserts nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { EMAILS, freshPostgresDatabase, percentile, planWorkbook, requireApi, signIn, sleep, startServer } from './lib/server.mjs';

const ROWS = Number(process.env.BENCH_JOBS_ROWS || 100_000);
const IDLE_CALLS = 300;
const PAUSE_MS = 10;
const MAX_LOADED_CALLS = 20_000;
const PG_URL = process.env.DATABASE_URL || '';

async function timedUserInfo(base, token) {
  const started = performance.now();
  const response = await fetch(`${base}/api/account/GetUserInfo`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(30_000),
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`GetUserInfo answered ${response.status}`);
  return performance.now() - started;
}

const summary = (latencies) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms (${sorted.length} calls)`;
};

async function run(label, databaseUrl, workbook) {
  const server = await startServer(label, databaseUrl);
  try {
    const base = server.url;
    const token = await signIn(base, EMAILS.os);
    const idle = [];
    for (let i = 0; i < IDLE_CALLS; i += 1) {
      idle.push(await timedUserInfo(base, token));
      await sleep(PAUSE_MS);
    }

    const form = new FormData();
    form.append('file', new Blob([workbook]), 'bench-plan.xlsx');
    const uploaded = await fetch(`${base}/api/File/Upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const { uploadId } = await uploaded.json();
    let done = false;
    const started = performance.now();
    const importing = fetch(`${base}/api/Tracker/CommissioningPlanUpload?filePath=${encodeURIComponent(uploadId)}`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(600_000),
    })
      .then(async (response) => ({ status: response.status, body: await response.json(), ms: performance.now() - started }))
      .finally(() => (done = true));
    const loaded = [];
    while (!done && loaded.length < MAX_LOADED_CALLS) {
      loaded.push(await timedUserInfo(base, token));
      await sleep(PAUSE_MS);
    }
    const result = await importing;
    if (result.status !== 200) throw new Error(`${label}: the import answered ${result.status} ${JSON.stringify(result.body).slice(0, 200)}`);
    console.log(`  ${label}`);
    console.log(`    account/GetUserInfo idle:            ${summary(idle)}`);
    console.log(`    account/GetUserInfo during import:   ${summary(loaded)}   (goal: p99 ≤ 50 ms)`);
    console.log(
      `    import as a job: ${result.body.rows} rows in ${(result.ms / 1000).toFixed(1)} s = ${Math.round(result.body.rows / (result.ms / 1000)).toLocaleString('en-US')} rows/s`,
    );
  } finally {
    await server.stop();
  }
}

/** The importer called in this process, as the request called it before the move (SQLite, same file). */
async function inProcessImport(file) {
  const { openDatabase } = requireApi('./dist/db/database.js');
  const { migrateToLatest } = requireApi('./dist/db/migrate.js');
  const { importDataSet } = requireApi('./dist/tracking/index.js');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-bench-jobs-'));
  const handle = openDatabase({ databaseUrl: null, sqliteFile: path.join(dir, 'bench.sqlite') });
  try {
    await migrateToLatest(handle.db);
    const started = performance.now();
    const result = await importDataSet(handle.db, 'commissioningPlan', file);
    const ms = performance.now() - started;
    console.log(
      `  importer in the request's process (before the move): ${result.rows} rows in ${(ms / 1000).toFixed(1)} s = ${Math.round(result.rows / (ms / 1000)).toLocaleString('en-US')} rows/s`,
    );
  } finally {
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`Jobs: the console's latency while a ${ROWS.toLocaleString('en-US')}-row import runs, and the import's rate`);
const workbook = await planWorkbook(ROWS);
console.log(`  workbook: ${(workbook.length / 1e6).toFixed(1)} MB`);
const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-bench-plan-')), 'plan.xlsx');
fs.writeFileSync(file, workbook);
await inProcessImport(file);
await run('SQLite', '', workbook);
if (PG_URL) {
  const database = await freshPostgresDatabase(PG_URL);
  try {
    await run('PostgreSQL', database.url, workbook);
  } finally {
    await database.drop();
  }
} else {
  console.log('  PostgreSQL: skipped (DATABASE_URL is not set)');
}
fs.rmSync(path.dirname(file), { recursive: true, force: true });
