// A bounded load test of the built API (api/dist/main.js): LOAD_USERS virtual users (default 200) for
// LOAD_SECONDS (default 60), each holding a notification-hub connection and doing what the console
// does — tracking list pages with page/sort/filter, the users list (as managers), notifications,
// account/GetUserInfo, now and then an export and its download — while exactly one commissioning-plan
// import runs. The server is a child process on a free loopback port with its own temporary DATA_DIR
// and the demo data, so its RSS (/proc/<pid>/status) is the server's alone. SQLite always; PostgreSQL
// too when LOAD_DATABASE_URL or DATABASE_URL is set (as `npm test` does), in a fresh database created
// for the run and dropped after it. Prints requests, errors (the first few in full), p50/p99 per call
// and the server's peak RSS; asserts nothing. Every loop stops by itself: at the deadline, after a
// bounded number of iterations, and every request has a timeout. Traffic goes to 127.0.0.1 only.
// Smoke test: LOAD_SECONDS=10 LOAD_USERS=20 node bench/load.mjs
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { EMAILS, freshPostgresDatabase, MAIN, memoryOf, percentile, planWorkbook, requireApi, signIn, sleep, startServer } from './lib/server.mjs';

const positive = (name, fallback) => {
  const value = Number(process.env[name] || fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number >= 0 (got "${process.env[name]}")`);
  return value;
};
const SECONDS = positive('LOAD_SECONDS', 60);
const USERS = Math.max(1, Math.round(positive('LOAD_USERS', 200)));
/** Each virtual user waits 0..2×THINK_MS (uniform) between its calls, as a person reading a page. */
const THINK_MS = positive('LOAD_THINK_MS', 250);
/** One export (GetCommissioningPlanExcel, then File/Download) every this often, across all users. */
const EXPORT_EVERY_MS = positive('LOAD_EXPORT_EVERY_MS', 5000);
/** Rows of the commissioning-plan workbook imported once, a third into the run. */
const IMPORT_ROWS = Math.round(positive('LOAD_IMPORT_ROWS', 5000));
const REQUEST_TIMEOUT_MS = 30_000;
/** A ceiling on any user's iterations, on top of the deadline: no loop runs unbounded. */
const MAX_ITERATIONS = Math.ceil(SECONDS * 1000) + 1000;
const FIRST_ERRORS = 8;
/** Who the virtual users sign in as, in turn: engineering roles mostly, one in ten a Client. */
const USER_CYCLE = ['manager', 'hq', 'os', 'manager', 'hq', 'os', 'manager', 'hq', 'os', 'client'];
const PG_URL = process.env.LOAD_DATABASE_URL || process.env.DATABASE_URL || '';

if (!fs.existsSync(MAIN)) {
  console.error(`bench/load: ${MAIN} is missing; build the API first (node scripts/build.mjs).`);
  process.exit(1);
}

const mib = (bytes) => `${(bytes / 1048576).toFixed(0)} MiB`;

/** Deterministic per-user randomness, so two runs make the same mix. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = (random, items) => items[Math.floor(random() * items.length)];

// ---------------------------------------------------------------------------------------------- server

class Stats {
  constructor() {
    this.calls = new Map();
    this.total = 0;
    this.errors = 0;
    this.firstErrors = [];
  }
  record(name, ms, error) {
    let call = this.calls.get(name);
    if (!call) this.calls.set(name, (call = { latencies: [], errors: 0 }));
    call.latencies.push(ms);
    this.total += 1;
    if (error) {
      call.errors += 1;
      this.errors += 1;
      if (this.firstErrors.length < FIRST_ERRORS) this.firstErrors.push({ call: name, ...error });
    }
  }
}

/** One HTTP call, timed to the end of its body; anything but the expected status is an error. */
async function call(stats, base, name, pathAndQuery, { token, method = 'GET', body, expect = 200 } = {}) {
  const started = performance.now();
  let status = 0;
  let text = '';
  let bytes = 0;
  let json;
  try {
    const response = await fetch(base + pathAndQuery, {
      method,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    status = response.status;
    const buffer = Buffer.from(await response.arrayBuffer());
    bytes = buffer.length;
    if ((response.headers.get('content-type') ?? '').includes('json')) {
      text = buffer.toString('utf8');
      json = text ? JSON.parse(text) : undefined;
    } else if (status !== expect) text = buffer.subarray(0, 300).toString('utf8');
  } catch (error) {
    text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
  const ms = performance.now() - started;
  const ok = status === expect;
  stats.record(name, ms, ok ? null : { status, method, path: pathAndQuery.slice(0, 160), body: text.slice(0, 300) });
  return { ok, status, json, bytes, ms };
}

// ----------------------------------------------------------------------------------------------- users

// ------------------------------------------------------------------------------------------ the traffic

const LISTS = [
  {
    name: 'Tracker/GetCommissioningPlan',
    weight: 20,
    sortable: ['localId', 'technology', 'equipName', 'supplier', 'commDate', 'week', 'project', 'LastUpdate'],
    filters: [{ supplier: 'nok' }, { localId: 'LX0' }, { technology: '5g' }, { commDate: '2024-0' }, { equipName: 'ment 1', supplier: 'eric' }],
  },
  {
    name: 'Tracker/GetTracker',
    weight: 15,
    sortable: ['id', 'localId', 'equipName', 'commDate', 'scheduleStatus', 'dateEntry', 'dayCount', 'week'],
    filters: [{ scheduleStatus: 'delayed' }, { localId: '0' }, { supplier: 'eric' }, { currentStatus: 'o' }],
  },
  {
    name: 'Tracker/GetWorkOrderStatusDelta',
    weight: 10,
    sortable: ['id', 'siteId', 'woType', 'wowStatus', 'wowCloseDate', 'action'],
    filters: [{ action: 'close' }, { siteId: '1' }, { wowStatus: 'o' }],
  },
];

/** A list page as the shared table asks for it: mostly the first pages, sometimes sorted or filtered. */
function listQuery(random, list) {
  const r = random();
  const page = r < 0.6 ? 1 : r < 0.9 ? 2 + Math.floor(random() * 4) : 6 + Math.floor(random() * 45);
  const params = new URLSearchParams({ page: String(page), size: String(pick(random, [10, 10, 10, 10, 20, 50, 100])) });
  if (random() < 0.4) {
    params.set('sort', pick(random, list.sortable));
    params.set('order', random() < 0.5 ? 'ascend' : 'descend');
  }
  if (random() < 0.25) params.set('filters', JSON.stringify(pick(random, list.filters)));
  return params.toString();
}

/** The shared export budget: one every EXPORT_EVERY_MS, whoever comes first. */
function exportSlots(startedAt, deadline) {
  const max = Math.max(1, Math.floor((deadline - startedAt) / EXPORT_EVERY_MS));
  let next = startedAt + Math.min(EXPORT_EVERY_MS, (deadline - startedAt) / 2);
  let taken = 0;
  return {
    take() {
      const now = performance.now();
      if (taken >= max || now < next) return false;
      taken += 1;
      next = now + EXPORT_EVERY_MS;
      return true;
    },
    get taken() {
      return taken;
    },
  };
}

async function exportAndDownload(stats, base, token, report) {
  const exported = await call(stats, base, 'Tracker/GetCommissioningPlanExcel', '/api/Tracker/GetCommissioningPlanExcel', { token });
  if (!exported.ok || !exported.json?.file) return;
  const download = await call(stats, base, 'File/Download', `/api/File/Download?file=${encodeURIComponent(exported.json.file)}`, { token });
  if (download.ok) {
    report.downloads += 1;
    report.downloadBytes += download.bytes;
  }
}

async function virtualUser(index, { stats, base, tokens, deadline, exports, report }) {
  const role = USER_CYCLE[index % USER_CYCLE.length];
  const token = tokens[role];
  const random = rng(0x5eed + index);
  const engineering = role !== 'client';
  // Spread the first calls over a second, as people do not all click at once.
  await sleep(random() * Math.min(1000, (deadline - performance.now()) / 4));
  for (let i = 0; i < MAX_ITERATIONS && performance.now() < deadline; i += 1) {
    const r = random() * 100;
    if (engineering && exports.take()) {
      await exportAndDownload(stats, base, token, report);
    } else if (engineering && r < 45) {
      // 45 %: one of the three tracking lists, weighted.
      const x = random() * 45;
      const list = x < LISTS[0].weight ? LISTS[0] : x < LISTS[0].weight + LISTS[1].weight ? LISTS[1] : LISTS[2];
      await call(stats, base, list.name, `/api/${list.name}?${listQuery(random, list)}`, { token });
    } else if (role === 'manager' && r < 55) {
      await call(stats, base, 'Users/GetUsers', '/api/Users/GetUsers', { token });
    } else if (r < 80) {
      const paged = random() < 0.5;
      const query = paged ? `?page=${1 + Math.floor(random() * 3)}&size=10` : random() < 0.5 ? '?unread=true' : '';
      await call(stats, base, paged ? 'Notification/Notifications (page)' : 'Notification/Notifications', `/api/Notification/Notifications${query}`, {
        token,
      });
    } else {
      await call(stats, base, 'account/GetUserInfo', '/api/account/GetUserInfo', { token, method: 'POST' });
    }
    const rest = deadline - performance.now();
    if (THINK_MS > 0 && rest > 0) await sleep(Math.min(rest, random() * 2 * THINK_MS));
  }
}

/** Exactly one import during the run: File/Upload, then CommissioningPlanUpload?filePath=<upload id>. */
async function importOnce(stats, base, token, workbook, report) {
  const started = performance.now();
  const form = new FormData();
  form.append('file', new Blob([workbook], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }), 'load-commissioning-plan.xlsx');
  const uploaded = await call(stats, base, 'File/Upload', '/api/File/Upload', { token, method: 'POST', body: form });
  if (!uploaded.ok || !uploaded.json?.uploadId) return;
  const imported = await call(
    stats,
    base,
    'Tracker/CommissioningPlanUpload',
    `/api/Tracker/CommissioningPlanUpload?filePath=${encodeURIComponent(uploaded.json.uploadId)}`,
    {
      token,
    },
  );
  report.import = { ok: imported.ok, rows: imported.json?.rows, ms: performance.now() - started, importMs: imported.ms };
}

/** One hub connection per virtual user (SignalR, WebSockets), opened before the traffic and held throughout. */
async function openHubs(stats, base, tokens, report) {
  const { HttpTransportType, HubConnectionBuilder, LogLevel } = requireApi('@microsoft/signalr');
  const connections = new Array(USERS);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(20, USERS) }, async () => {
      for (let i = next++; i < USERS; i = next++) {
        const token = tokens[USER_CYCLE[i % USER_CYCLE.length]];
        const connection = new HubConnectionBuilder()
          .withUrl(`${base}/api/notificationhub`, { accessTokenFactory: () => token, transport: HttpTransportType.WebSockets })
          .configureLogging(LogLevel.None)
          .build();
        connection.on('NewNotification', () => (report.notifications += 1));
        connection.onclose((error) => {
          if (!report.stopping) {
            report.hubClosed += 1;
            if (report.firstHubClose === undefined) report.firstHubClose = error ? String(error.message ?? error) : 'closed';
          }
        });
        const started = performance.now();
        try {
          await Promise.race([connection.start(), sleep(REQUEST_TIMEOUT_MS).then(() => Promise.reject(new Error('hub start timed out')))]);
          stats.record('hub connect (negotiate + WebSocket)', performance.now() - started, null);
          connections[i] = connection;
        } catch (error) {
          stats.record('hub connect (negotiate + WebSocket)', performance.now() - started, {
            status: 0,
            path: '/api/notificationhub',
            body: String(error?.message ?? error),
          });
          await connection.stop().catch(() => undefined);
        }
      }
    }),
  );
  return connections.filter(Boolean);
}

// ------------------------------------------------------------------------------------------------- run

async function loadRun(label, databaseUrl) {
  const server = await startServer(label, databaseUrl);
  const report = { notifications: 0, hubClosed: 0, stopping: false, downloads: 0, downloadBytes: 0, import: null };
  const stats = new Stats();
  let hubs = [];
  let sampler;
  try {
    const idle = memoryOf(server.pid);
    console.log(
      `\nload (${label}): ${USERS} virtual users for ${SECONDS} s on ${server.url} (server pid ${server.pid}, idle RSS ${idle ? mib(idle.rss) : '?'})`,
    );
    const tokens = {};
    for (const [role, email] of Object.entries(EMAILS)) tokens[role] = await signIn(server.url, email);
    const workbook = await planWorkbook(IMPORT_ROWS);

    let peakRss = idle?.rss ?? 0;
    sampler = setInterval(() => {
      const memory = memoryOf(server.pid);
      if (memory) peakRss = Math.max(peakRss, memory.rss);
    }, 200);
    let serverDied = false;
    server.exited.then((code) => {
      if (!report.stopping) {
        serverDied = true;
        console.error(`  the API exited during the run (${code}):\n${server.stderr().slice(-2000)}`);
      }
    });

    const hubStarted = performance.now();
    hubs = await openHubs(stats, server.url, tokens, report);
    console.log(`  hub: ${hubs.length}/${USERS} connected in ${((performance.now() - hubStarted) / 1000).toFixed(1)} s`);

    const startedAt = performance.now();
    const deadline = startedAt + SECONDS * 1000;
    const exports = exportSlots(startedAt, deadline);
    const context = { stats, base: server.url, tokens, deadline, exports, report };
    const importer = sleep((deadline - startedAt) / 3).then(() => (serverDied ? undefined : importOnce(stats, server.url, tokens.manager, workbook, report)));
    await Promise.all([...Array.from({ length: USERS }, (_, i) => virtualUser(i, context)), importer]);
    const elapsed = (performance.now() - startedAt) / 1000;
    // Notifications of the import reach the hub a moment after its answer.
    await sleep(500);
    report.stopping = true;
    const hubsAtEnd = hubs.filter((c) => c.state === 'Connected').length;
    await Promise.all(hubs.map((c) => Promise.race([c.stop(), sleep(5000)]).catch(() => undefined)));
    clearInterval(sampler);
    const final = memoryOf(server.pid);
    if (final) peakRss = Math.max(peakRss, final.rss);

    // ------------------------------------------------------------------------------------- report
    const traffic = stats.total - (stats.calls.get('hub connect (negotiate + WebSocket)')?.latencies.length ?? 0);
    console.log(
      `  requests: ${stats.total.toLocaleString('en-US')} in all (${Math.round(traffic / elapsed).toLocaleString('en-US')}/s over ${elapsed.toFixed(1)} s, think time 0–${2 * THINK_MS} ms), errors: ${stats.errors} (goal 0)`,
    );
    const rows = [...stats.calls.entries()].sort((a, b) => b[1].latencies.length - a[1].latencies.length);
    const width = Math.max(...rows.map(([name]) => name.length));
    console.log(`  ${'call'.padEnd(width)}   count  errors    p50 ms    p99 ms    max ms`);
    for (const [name, { latencies, errors }] of rows) {
      latencies.sort((a, b) => a - b);
      const f = (v) => v.toFixed(1).padStart(9);
      console.log(
        `  ${name.padEnd(width)} ${String(latencies.length).padStart(7)} ${String(errors).padStart(7)} ${f(percentile(latencies, 50))} ${f(percentile(latencies, 99))} ${f(latencies.at(-1))}`,
      );
    }
    const imp = report.import;
    console.log(
      imp
        ? `  import: ${imp.ok ? `${imp.rows} rows` : 'FAILED'} (${IMPORT_ROWS} in the workbook), upload + import ${(imp.ms / 1000).toFixed(1)} s, of which the import call ${(imp.importMs / 1000).toFixed(1)} s`
        : '  import: did not complete',
    );
    console.log(`  exports: ${exports.taken}, downloads: ${report.downloads} (${(report.downloadBytes / 1e6).toFixed(1)} MB)`);
    console.log(
      `  hub: ${hubsAtEnd}/${hubs.length} still connected at the end, ${report.hubClosed} closed during the run${report.firstHubClose ? ` (first: ${report.firstHubClose})` : ''}, ${report.notifications} notifications received`,
    );
    console.log(
      `  server RSS: idle ${idle ? mib(idle.rss) : '?'}, peak under load ${mib(peakRss)} (VmRSS every 200 ms); VmHWM ${final ? mib(final.hwm) : '?'} (peak since start, start-up demo import included)`,
    );
    if (stats.firstErrors.length > 0) {
      console.log(`  first ${stats.firstErrors.length} errors:`);
      for (const e of stats.firstErrors) console.log(`    ${e.call}: ${e.status} ${e.method ?? ''} ${e.path} ${JSON.stringify(e.body)}`);
    }
  } finally {
    clearInterval(sampler);
    report.stopping = true;
    await Promise.all(hubs.map((c) => Promise.race([c.stop(), sleep(5000)]).catch(() => undefined)));
    await server.stop();
  }
}

await loadRun('SQLite', '');
if (PG_URL) {
  let database;
  try {
    database = await freshPostgresDatabase(PG_URL);
  } catch (error) {
    console.log(`\nload (PostgreSQL): skipped, could not create a database at ${new URL(PG_URL).host}: ${error.message}`);
  }
  if (database) {
    try {
      await loadRun('PostgreSQL, fresh database', database.url);
    } finally {
      await database.drop();
    }
  }
} else {
  console.log('\nload (PostgreSQL): skipped; set LOAD_DATABASE_URL (or DATABASE_URL) to run it against a fresh database there');
}
