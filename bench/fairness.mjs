// Load fairness (issue 44, fix 3), against the built API (api/dist/main.js) on SQLite, and on PostgreSQL
// too when FAIRNESS_DATABASE_URL is set (a fresh database, dropped after the run). Two measurements:
// (1) req/s at 50 connections, one call at a time for FAIRNESS_RATE_SECONDS each: account/GetUserInfo
//     (the cheap reference), Monitoring/GetOverallSiteSummary and the filtered commissioning-plan list
//     (FAIRNESS_PLAN_ROWS rows imported first, default 120,000) — goal: the two lists at >= 10× the
//     57 and 77 req/s measured when the issue was filed;
// (2) the fairness line: 200 connections over a mixed read set for FAIRNESS_SECONDS while a log parse
//     and a commissioning-plan import run, printing p50, p99, max and the slowest request's route —
//     goal p99 <= 3 × p50, max <= 8 × p50, 0 errors.
// Closed-loop load from node:http with a keep-alive agent (one request at a time per connection); every
// loop stops at its deadline and after a bounded count; every request has a timeout; 127.0.0.1 only.
// Smoke run: FAIRNESS_PLAN_ROWS=5000 FAIRNESS_SECONDS=5 FAIRNESS_RATE_SECONDS=2 node bench/fairness.mjs
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { EMAILS, freshPostgresDatabase, MAIN, percentile, planWorkbook, requireApi, signIn, sleep, startServer } from './lib/server.mjs';

const positive = (name, fallback) => {
  const value = Number(process.env[name] || fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a number > 0 (got "${process.env[name]}")`);
  return value;
};
const PLAN_ROWS = Math.round(positive('FAIRNESS_PLAN_ROWS', 120_000));
const SECONDS = positive('FAIRNESS_SECONDS', 20);
const RATE_SECONDS = positive('FAIRNESS_RATE_SECONDS', 5);
/** Nodes of the synthetic MoBatch archive parsed during the fairness run. */
const PARSE_NODES = Math.round(positive('FAIRNESS_PARSE_NODES', 300));
/** Rows of the commissioning plan imported during the fairness run. */
const IMPORT_ROWS = Math.round(positive('FAIRNESS_IMPORT_ROWS', PLAN_ROWS));
const CONNECTIONS = 200;
const RATE_CONNECTIONS = 50;
const REQUEST_TIMEOUT_MS = 60_000;
/** Per connection: no loop runs unbounded even if every answer were instant. */
const MAX_REQUESTS_PER_CONNECTION = 200_000;
/** When the issue was filed, alone at 50 connections (req/s). */
const FILED = { summary: 57, plan: 77, userInfo: 1888 };
const PG_URL = process.env.FAIRNESS_DATABASE_URL || '';

if (!fs.existsSync(MAIN)) {
  console.error(`bench/fairness: ${MAIN} is missing; build the API first (node scripts/build.mjs).`);
  process.exit(1);
}

/** One request on the keep-alive agent, its body read to the end; resolves with status and ms, never rejects. */
function request(agent, base, { method = 'GET', path: target, token, body, headers = {} }) {
  const started = performance.now();
  return new Promise((resolve) => {
    const url = new URL(target, base);
    const req = http.request(
      url,
      { method, agent, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers }, timeout: REQUEST_TIMEOUT_MS },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, body: Buffer.concat(chunks) }));
        res.on('error', (error) => resolve({ status: 0, ms: performance.now() - started, error: String(error) }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timed out after ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', (error) => resolve({ status: 0, ms: performance.now() - started, error: String(error.message ?? error) }));
    req.end(body);
  });
}

const json = (answer) => JSON.parse(answer.body.toString('utf8'));

/**
 * The server's longest event-loop delay (ms) since the previous call: prom-client's
 * nodejs_eventloop_lag_max_seconds, whose histogram restarts at each scrape.
 */
async function eventLoopLagMax(base) {
  const answer = await request(undefined, base, { path: '/api/metrics' });
  if (answer.status !== 200) return null;
  const m = /^nodejs_eventloop_lag_max_seconds\s+([\d.eE+-]+)/m.exec(answer.body.toString('utf8'));
  return m ? Number(m[1]) * 1000 : null;
}

/** `connections` loops, each taking the next call of `next()` until the deadline; latencies by route. */
async function closedLoop(base, connections, seconds, next) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const byRoute = new Map();
  const errors = [];
  let count = 0;
  let slowest = { ms: -1, route: '', sentAt: 0, first: false };
  const start = performance.now();
  const deadline = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async (_, worker) => {
      for (let i = 0; i < MAX_REQUESTS_PER_CONNECTION && performance.now() < deadline; i += 1) {
        const call = next(worker, i);
        const sentAt = performance.now() - start;
        const answer = await request(agent, base, call);
        count += 1;
        let latencies = byRoute.get(call.route);
        if (!latencies) byRoute.set(call.route, (latencies = []));
        latencies.push(answer.ms);
        if (answer.ms > slowest.ms) slowest = { ms: answer.ms, route: call.route, sentAt, first: i === 0 };
        if (answer.status !== 200) errors.push({ route: call.route, status: answer.status, detail: answer.error ?? answer.body?.subarray(0, 200).toString() });
      }
    }),
  );
  const elapsed = seconds + Math.max(0, performance.now() - deadline) / 1000;
  agent.destroy();
  return { byRoute, errors, count, elapsed, slowest };
}

async function upload(base, token, name, type, buffer) {
  const form = new FormData();
  form.append('file', new Blob([buffer], { type }), name);
  const response = await fetch(`${base}/api/File/Upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
    signal: AbortSignal.timeout(120_000),
  });
  if (response.status !== 200) throw new Error(`upload of ${name}: ${response.status} ${(await response.text()).slice(0, 300)}`);
  return (await response.json()).uploadId;
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function importPlan(base, token, workbook) {
  const id = await upload(base, token, 'fairness-plan.xlsx', XLSX, workbook);
  const response = await fetch(`${base}/api/Tracker/CommissioningPlanUpload?filePath=${encodeURIComponent(id)}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(600_000),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`plan import: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

async function parseLogs(base, token, userId, archive) {
  const id = await upload(base, token, 'fairness-logs.zip', 'application/zip', archive);
  const response = await fetch(`${base}/api/Parser/ParseEricssonLogs?filesPath=${encodeURIComponent(id)}&userId=${userId}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(600_000),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`log parse: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** A synthetic MoBatch archive (the demo log generator's RadioNodes), written with the console's own writer. */
async function logArchive(nodes) {
  const { syntheticLogNodes, writeLogArchive } = requireApi('./dist/demo/logs/index.js');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-bench-fairness-'));
  try {
    const file = path.join(dir, 'logs.zip');
    await writeLogArchive(file, syntheticLogNodes(nodes), { seed: 44 });
    return fs.readFileSync(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const PLAN_FILTERED = `/api/Tracker/GetCommissioningPlan?page=1&size=10&filters=${encodeURIComponent(JSON.stringify({ supplier: 'nok' }))}`;
const SUMMARY = '/api/Monitoring/GetOverallSiteSummary?page=1&size=10';
const USER_INFO = '/api/account/GetUserInfo';

/** The mixed read set of the fairness run: what the console's pages read, cheap and heavy alike. */
function mixedCall(tokens, worker, i) {
  const token = [tokens.manager, tokens.hq, tokens.os][worker % 3];
  const page = 1 + ((worker * 7 + i) % 5);
  const calls = [
    { route: 'account/GetUserInfo', method: 'POST', path: USER_INFO },
    { route: 'Monitoring/GetOverallSiteSummary', path: `/api/Monitoring/GetOverallSiteSummary?page=${page}&size=10` },
    { route: 'Tracker/GetCommissioningPlan (filtered)', path: PLAN_FILTERED.replace('page=1', `page=${page}`) },
    { route: 'Tracker/GetCommissioningPlan', path: `/api/Tracker/GetCommissioningPlan?page=${page}&size=10&sort=commDate&order=descend` },
    { route: 'Monitoring/GetFaultManagementSummary', path: `/api/Monitoring/GetFaultManagementSummary?page=${page}&size=10` },
    { route: 'Monitoring/GetFaultManagement', path: `/api/Monitoring/GetFaultManagement?page=${page}&size=10` },
    { route: 'Notification/Notifications', path: '/api/Notification/Notifications?page=1&size=10' },
    { route: 'Tracker/GetTracker', path: `/api/Tracker/GetTracker?page=${page}&size=10` },
  ];
  return { ...calls[(worker + i) % calls.length], token };
}

const f1 = (v) => v.toFixed(1);

async function fairnessRun(label, databaseUrl) {
  // /api/metrics open to this bench only (loopback): the server's own event-loop lag during the fairness run.
  const server = await startServer(label, databaseUrl, { METRICS_ALLOW: '127.0.0.1' });
  try {
    console.log(`\nfairness (${label}) on ${server.url}, server pid ${server.pid}`);
    const tokens = {};
    for (const [role, email] of Object.entries(EMAILS)) tokens[role] = await signIn(server.url, email);
    const me = json(await request(undefined, server.url, { method: 'POST', path: USER_INFO, token: tokens.manager }));

    let started = performance.now();
    const plan = await planWorkbook(PLAN_ROWS);
    const imported = await importPlan(server.url, tokens.manager, plan);
    console.log(`  set-up: ${imported.rows ?? PLAN_ROWS} commissioning-plan rows imported in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    // ---------------------------------------------------------------------------------- (1) req/s
    const rates = {};
    for (const [key, route, call] of [
      ['userInfo', 'account/GetUserInfo', { method: 'POST', path: USER_INFO }],
      ['summary', 'Monitoring/GetOverallSiteSummary', { path: SUMMARY }],
      ['plan', 'Tracker/GetCommissioningPlan, filtered supplier "nok"', { path: PLAN_FILTERED }],
    ]) {
      const run = await closedLoop(server.url, RATE_CONNECTIONS, RATE_SECONDS, () => ({ ...call, route, token: tokens.manager }));
      const latencies = [...run.byRoute.values()][0].sort((a, b) => a - b);
      rates[key] = { route, rate: run.count / run.elapsed, p50: percentile(latencies, 50), errors: run.errors.length };
    }
    console.log(
      `  req/s at ${RATE_CONNECTIONS} connections, ${RATE_SECONDS} s each (when filed: GetUserInfo ${FILED.userInfo}, summary ${FILED.summary}, plan ${FILED.plan}):`,
    );
    for (const [key, r] of Object.entries(rates)) {
      const goal = FILED[key] && key !== 'userInfo' ? ` — ${(r.rate / FILED[key]).toFixed(1)}× the filed ${FILED[key]} (goal >= 10×)` : '';
      console.log(`    ${r.route.padEnd(54)} ${f1(r.rate).padStart(8)} req/s, p50 ${f1(r.p50)} ms, errors ${r.errors}${goal}`);
    }

    // ------------------------------------------------------------------------------ (2) fairness
    const archive = await logArchive(PARSE_NODES);
    const workbook = IMPORT_ROWS === PLAN_ROWS ? plan : await planWorkbook(IMPORT_ROWS);
    started = performance.now();
    const background = {};
    const jobs = Promise.all([
      sleep(500)
        .then(() => parseLogs(server.url, tokens.manager, me.id, archive))
        .then(
          () => (background.parse = `${PARSE_NODES} nodes parsed in ${((performance.now() - started - 500) / 1000).toFixed(1)} s`),
          (error) => (background.parse = `FAILED: ${error.message}`),
        ),
      sleep(1000)
        .then(() => importPlan(server.url, tokens.manager, workbook))
        .then(
          (answer) => (background.import = `${answer.rows ?? IMPORT_ROWS} rows imported in ${((performance.now() - started - 1000) / 1000).toFixed(1)} s`),
          (error) => (background.import = `FAILED: ${error.message}`),
        ),
    ]);
    await eventLoopLagMax(server.url);
    const run = await closedLoop(server.url, CONNECTIONS, SECONDS, (worker, i) => mixedCall(tokens, worker, i));
    const lag = await eventLoopLagMax(server.url);
    await jobs;
    const all = [];
    for (const latencies of run.byRoute.values()) all.push(...latencies);
    const { slowest } = run;
    all.sort((a, b) => a - b);
    const p50 = percentile(all, 50);
    const p99 = percentile(all, 99);
    const max = all.at(-1);
    console.log(
      `  fairness: ${CONNECTIONS} connections, mixed reads for ${SECONDS} s with a parse and an import running: ${run.count} requests (${f1(run.count / run.elapsed)}/s), ` +
        `p50 ${f1(p50)} ms, p99 ${f1(p99)} ms (${(p99 / p50).toFixed(1)}× p50, goal <= 3×), max ${f1(max)} ms (${(max / p50).toFixed(1)}× p50, goal <= 8×), ` +
        `slowest: ${slowest.route}, errors ${run.errors.length} (goal 0)`,
    );
    console.log(
      `    slowest sent ${f1(slowest.sentAt / 1000)} s into the run${slowest.first ? ' (its connection’s first request)' : ''}; ` +
        `server event loop's longest delay during the run: ${lag === null ? 'unknown' : `${f1(lag)} ms`}`,
    );
    console.log(`    during it: parse ${background.parse}; import ${background.import}`);
    const width = Math.max(...[...run.byRoute.keys()].map((r) => r.length));
    for (const [route, latencies] of [...run.byRoute].sort((a, b) => a[0].localeCompare(b[0]))) {
      latencies.sort((a, b) => a - b);
      console.log(
        `    ${route.padEnd(width)} ${String(latencies.length).padStart(6)} calls, p50 ${f1(percentile(latencies, 50)).padStart(7)} ms, p99 ${f1(percentile(latencies, 99)).padStart(7)} ms, max ${f1(latencies.at(-1)).padStart(7)} ms`,
      );
    }
    for (const e of run.errors.slice(0, 5)) console.log(`    error: ${e.route} ${e.status} ${JSON.stringify(e.detail)}`);
  } finally {
    await server.stop();
  }
}

await fairnessRun('SQLite', '');
if (PG_URL) {
  const database = await freshPostgresDatabase(PG_URL);
  try {
    await fairnessRun('PostgreSQL, fresh database', database.url);
  } finally {
    await database.drop();
  }
} else {
  console.log('\nfairness (PostgreSQL): skipped; set FAIRNESS_DATABASE_URL to run it against a fresh database there');
}
