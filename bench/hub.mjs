// Notification hub under load: 1,000 WebSocket connections (one user each) on loopback, then one
// notification to all of them. Prints delivery latency (p50/p99, from the notify call to each client's
// receipt) and the server's memory per connection, first with the in-process backplane, then with the
// Redis one, and both side by side with the goal. Runs against the built API (api/dist): the server is
// a child process with its own temporary DATA_DIR, so its RSS is the server's alone.
// `node bench/hub.mjs [connections]`. Redis: BENCH_REDIS_URL (default redis://127.0.0.1:6379; the run
// says so and is left out when nothing answers there). Store: SQLite, or PostgreSQL when
// BENCH_DATABASE_URL=postgres://… (a scratch schema, dropped afterwards).
import { fork } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST = path.join(ROOT, 'api/dist');
const requireApi = createRequire(path.join(ROOT, 'api/package.json'));
const RS = '\x1e';
const ROUNDS = 5;
const GOAL_P99_MS = 100;

if (process.argv[2] === '--server') await server();
else await main(Number(process.argv[2] ?? 1000));

async function main(connections) {
  if (!fs.existsSync(path.join(DIST, 'notifications/index.js'))) {
    console.error('api/dist is missing or stale: build it first (cd api && npx tsc -p tsconfig.build.json)');
    process.exit(1);
  }
  const redisUrl = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379';
  const results = [['in-process', await client(connections, null)]];
  if (await answers(redisUrl)) results.push(['Redis', await client(connections, redisUrl)]);
  else console.log(`Redis run left out: nothing answers PING at ${redisUrl}`);
  const store = process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'SQLite';
  console.log(`hub summary (${connections} connections, ${store} store, ${ROUNDS} rounds each; goal p99 <= ${GOAL_P99_MS} ms):`);
  for (const [name, r] of results)
    console.log(
      `  ${`${name} backplane:`.padEnd(22)} delivery p50 ${r.p50.toFixed(1).padStart(6)} ms, p99 ${r.p99.toFixed(1).padStart(6)} ms  ${r.p99 <= GOAL_P99_MS ? 'met' : 'NOT met'}`,
    );
}

/** True when a Redis server answers PING at `url` within a second. */
async function answers(url) {
  const { Redis } = requireApi('ioredis');
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** The child: a whole API on a loopback port, driven over IPC. */
async function server() {
  const { buildApp } = requireApi(path.join(DIST, 'app.js'));
  const { loadConfig } = requireApi(path.join(DIST, 'config.js'));
  const { openDatabase } = requireApi(path.join(DIST, 'db/database.js'));
  const { migrateToLatest } = requireApi(path.join(DIST, 'db/migrate.js'));
  const { seed } = requireApi(path.join(DIST, 'seed/index.js'));
  const count = Number(process.env.BENCH_USERS);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-bench-hub-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PORT: '0',
    HOST: '127.0.0.1',
    DEMO_DATA: '0',
    ...(process.env.BENCH_REDIS_URL ? { REDIS_URL: process.env.BENCH_REDIS_URL } : {}),
  });
  const databaseUrl = process.env.BENCH_DATABASE_URL || null;
  const schema = databaseUrl ? `bench_hub_${process.pid}` : undefined;
  const pg = databaseUrl ? requireApi('pg') : null;
  const admin = async (statement) => {
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    await c.query(statement);
    await c.end();
  };
  if (schema) await admin(`create schema ${schema}`);
  const handle = openDatabase({ databaseUrl, sqliteFile: path.join(dataDir, 'cellwise.sqlite'), ...(schema ? { pgSchema: schema } : {}) });
  await migrateToLatest(handle.db, schema);
  await seed(handle.db, config);
  const role = await handle.db.selectFrom('roles').select('id').where('name', '=', 'Client').executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  const rows = Array.from({ length: count }, (_, i) => ({
    firstname: 'Bench',
    lastname: `User ${i}`,
    email: `bench-${i}@cellwise.local`,
    password_hash: null,
    role_id: role.id,
    operator_id: null,
    email_confirmed: 1,
    deactivated_at: null,
    avatar: null,
    created_at: now,
  }));
  for (let i = 0; i < rows.length; i += 500)
    await handle.db
      .insertInto('users')
      .values(rows.slice(i, i + 500))
      .execute();
  const userIds = (await handle.db.selectFrom('users').select('id').where('email', 'like', 'bench-%').orderBy('id').execute()).map((r) => r.id);

  const app = await buildApp({ config, db: handle.db, dialect: handle.dialect }, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const tokens = [];
  for (const id of userIds) tokens.push(await app.auth.issueToken(id));

  // Only a clock on the hand-over to this instance's sockets (directly or from Redis): when the
  // server's part of a round ended, apart from how soon this process reads what was sent.
  let onSent = () => undefined;
  const deliverLocally = app.notifications.deliverLocally.bind(app.notifications);
  app.notifications.deliverLocally = (broadcast) => {
    deliverLocally(broadcast);
    onSent();
  };
  const memory = () => {
    globalThis.gc?.();
    const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
    return { rss, heap: heapUsed + external + arrayBuffers };
  };
  // A parent that dies (Ctrl-C, a broken pipe) must not leave this server running.
  process.on('disconnect', () => process.exit(0));
  process.on('message', async (message) => {
    if (message.type === 'memory') process.send({ type: 'memory', ...memory() });
    if (message.type === 'notify') {
      const started = performance.now();
      const sent = new Promise((resolve) => (onSent = () => resolve(performance.now() - started)));
      await app.notifications.notify(userIds, { key: 'bench', title: `Bench round ${message.round}`, icon: 'info', variant: 'info' });
      const ms = performance.now() - started;
      process.send({ type: 'notified', ms, sentMs: await sent });
    }
    if (message.type === 'stop') {
      await app.close();
      await handle.close();
      if (schema) await admin(`drop schema ${schema} cascade`);
      fs.rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    }
  });
  process.send({ type: 'ready', url: `http://127.0.0.1:${app.server.address().port}`, tokens, memory: memory() });
}

/** The parent: raw `ws` clients speaking the JSON hub protocol, as light as a client can be. Answers p50/p99 of all rounds. */
async function client(connections, redisUrl) {
  const { default: WebSocket } = await import(requireApi.resolve('ws'));
  const env = { ...process.env, BENCH_USERS: String(connections) };
  delete env.BENCH_REDIS_URL;
  if (redisUrl) env.BENCH_REDIS_URL = redisUrl;
  const child = fork(import.meta.filename, ['--server'], {
    execArgv: ['--expose-gc'],
    env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const inbox = [];
  const waiters = [];
  child.on('message', (message) => {
    const waiter = waiters.findIndex((w) => w.type === message.type);
    if (waiter >= 0) waiters.splice(waiter, 1)[0].resolve(message);
    else inbox.push(message);
  });
  child.on('exit', (code) => {
    if (code !== 0 && code !== null) {
      console.error(`hub server exited with ${code}`);
      process.exit(1);
    }
  });
  const next = (type) =>
    new Promise((resolve) => {
      const ready = inbox.findIndex((m) => m.type === type);
      if (ready >= 0) resolve(inbox.splice(ready, 1)[0]);
      else waiters.push({ type, resolve });
    });
  const ask = (type, extra = {}) => {
    child.send({ type, ...extra });
    return next(type === 'notify' ? 'notified' : type);
  };

  const ready = await next('ready');
  const baseline = ready.memory;
  console.log(
    `hub bench: ${connections} connections to ${ready.url} (server pid ${child.pid}, ${redisUrl ? 'Redis' : 'in-process'} backplane, ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'SQLite'} store)`,
  );

  let onNotification = () => undefined;
  const sockets = [];
  const open = async (token) => {
    const negotiated = await fetch(`${ready.url}/api/notificationhub/negotiate?negotiateVersion=1`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
    });
    if (negotiated.status !== 200) throw new Error(`negotiate answered ${negotiated.status}`);
    const { connectionToken } = await negotiated.json();
    const ws = new WebSocket(`${ready.url.replace('http', 'ws')}/api/notificationhub?id=${encodeURIComponent(connectionToken)}&access_token=${token}`);
    await new Promise((resolve, reject) => {
      ws.once('error', reject);
      ws.once('open', () => {
        ws.send(JSON.stringify({ protocol: 'json', version: 1 }) + RS);
        ws.once('message', (data) => (data.toString() === `{}${RS}` ? resolve() : reject(new Error(`handshake answered ${data}`))));
      });
    });
    ws.on('message', (data) => {
      for (const record of data.toString().split(RS)) if (record.includes('"NewNotification"')) onNotification();
    });
    sockets.push(ws);
  };

  const connectStart = performance.now();
  const queue = [...ready.tokens];
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      for (let token = queue.shift(); token; token = queue.shift()) await open(token);
    }),
  );
  const connectMs = performance.now() - connectStart;
  // The clients' own pings, so the server never takes them for dead during a slow run.
  const keepAlive = setInterval(() => sockets.forEach((ws) => ws.send(`{"type":6}${RS}`)), 10_000);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const connectedMemory = await ask('memory');
  console.log(`  connected ${sockets.length} in ${(connectMs / 1000).toFixed(2)} s (${Math.round(sockets.length / (connectMs / 1000))}/s)`);
  const perConnection = (field) => ((connectedMemory[field] - baseline[field]) / sockets.length / 1024).toFixed(1) + ' KiB';
  const mib = (bytes) => `${(bytes / 1048576).toFixed(1)} MiB`;
  console.log(
    `  server RSS ${mib(baseline.rss)} idle -> ${mib(connectedMemory.rss)} connected: ${perConnection('rss')} per connection (JS heap + buffers: ${perConnection('heap')} per connection)`,
  );

  const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  const all = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const latencies = [];
    const done = new Promise((resolve) => {
      onNotification = () => {
        latencies.push(performance.now() - started);
        if (latencies.length === sockets.length) resolve();
      };
    });
    const started = performance.now();
    const { ms: notifyMs, sentMs } = await ask('notify', { round });
    const timeout = new Promise((resolve) => setTimeout(() => resolve('timeout'), 10_000));
    if ((await Promise.race([done, timeout])) === 'timeout')
      console.log(`  round ${round}: only ${latencies.length} of ${sockets.length} delivered within 10 s`);
    latencies.sort((a, b) => a - b);
    all.push(...latencies);
    console.log(
      `  round ${round}: server sent all in ${sentMs.toFixed(1)} ms, notify() resolved in ${notifyMs.toFixed(1)} ms (stored ${sockets.length} rows); delivery p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${latencies.at(-1).toFixed(1)} ms`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  all.sort((a, b) => a - b);
  const p99 = percentile(all, 99);
  console.log(
    `  all rounds: p50 ${percentile(all, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (goal p99 <= ${GOAL_P99_MS} ms: ${p99 <= GOAL_P99_MS ? 'met' : 'NOT met'})`,
  );
  console.log('  (latency runs from the notify call to receipt in this process, which also parses every client’s frames)');

  clearInterval(keepAlive);
  for (const ws of sockets) ws.terminate();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send({ type: 'stop' });
  await exited;
  return { p50: percentile(all, 50), p99 };
}
