import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from '../config';
import { POOLS } from '../db/database';

export const METRICS_PATH = '/api/metrics';
export const METRICS_REFUSED = 'Metrics are open only to the addresses in METRICS_ALLOW or to the METRICS_TOKEN bearer.';

/** Request latency buckets (seconds): the console's answers run from a millisecond to an import's tens of seconds. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Job duration buckets (seconds): a site report takes a second, a dump import minutes. */
const JOB_BUCKETS = [0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800];

function allowList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

/** `::ffff:10.0.0.5` (an IPv4 client of a dual-stack listener) is checked as 10.0.0.5. */
function allowed(list: BlockList, ip: string): boolean {
  const plain = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  const family = isIP(plain);
  return family !== 0 && list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * `/api/metrics` in Prometheus' text format (issue 44): requests by route (rate, latency), the job queue
 * (depth by kind, durations of finished jobs by kind), hub connections, the PostgreSQL pool, and
 * prom-client's process metrics (event-loop lag, heap, GC). Registered only when METRICS_ALLOW or
 * METRICS_TOKEN is set, and answered only to those addresses or that bearer: it tells an outsider
 * how busy the console is and which routes it has.
 */
export function registerMetrics(app: FastifyInstance, config: Pick<Config, 'metrics'>): void {
  const access = config.metrics;
  if (access === null) return;
  const allowedAddresses = allowList(access.allow);
  const tokenDigest = access.token === null ? null : digest(access.token);

  // Its own registry per app: tests build several apps in one process, each with its own numbers.
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

  const requests = new Counter({
    name: 'cellwise_http_requests_total',
    help: 'HTTP requests answered, by method, route (its pattern) and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'cellwise_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by method and route.',
    labelNames: ['method', 'route'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // The pattern, not the URL: ids and query strings would make every request a series of its own.
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  new Gauge({
    name: 'cellwise_hub_connections',
    help: 'Connections to the notification hub open on this instance, over any transport (WebSockets, Server-Sent Events, Long Polling).',
    registers: [registry],
    collect() {
      // Read at scrape time: the notification service is registered after the metrics.
      this.set(app.hasDecorator('notifications') ? app.notifications.connectionCount : 0);
    },
  });

  const { db } = app.services;
  const pool = POOLS.get(db);
  if (pool) {
    new Gauge({
      name: 'cellwise_db_pool_connections',
      help: 'PostgreSQL pool connections of this instance: total open, idle, and requests waiting for one.',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  }

  const queue = new Gauge({
    name: 'cellwise_jobs',
    help: 'Jobs waiting (queued) and running, by kind, as the jobs table records them for every instance.',
    labelNames: ['kind', 'state'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'cellwise_job_duration_seconds',
    help: 'Run time of the jobs that finished since this instance started, by kind and outcome.',
    labelNames: ['kind', 'state'] as const,
    buckets: JOB_BUCKETS,
    registers: [registry],
  });
  // Jobs run on any instance: durations are read from the table at each scrape, each finished job once.
  let finishedAfter = new Date(app.auth.clock()).toISOString();
  const seenAtThatTime = new Set<string>();
  async function readJobs(): Promise<void> {
    const waiting = await db
      .selectFrom('jobs')
      .select(['kind', 'state', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('state', 'in', ['queued', 'running'])
      .groupBy(['kind', 'state'])
      .execute();
    queue.reset();
    for (const kind of app.jobs.kindNames) for (const state of ['queued', 'running']) queue.set({ kind, state }, 0);
    for (const row of waiting) queue.set({ kind: row.kind, state: row.state }, Number(row.count));

    const finished = await db
      .selectFrom('jobs')
      .select(['id', 'kind', 'state', 'started_at', 'finished_at'])
      .where('finished_at', '>=', finishedAfter)
      .orderBy('finished_at')
      .limit(10_000)
      .execute();
    for (const job of finished) {
      if (job.finished_at === finishedAfter && seenAtThatTime.has(job.id)) continue;
      if (job.finished_at !== finishedAfter) {
        finishedAfter = job.finished_at!;
        seenAtThatTime.clear();
      }
      seenAtThatTime.add(job.id);
      const start = Date.parse(job.started_at ?? job.finished_at!);
      durations.observe({ kind: job.kind, state: job.state }, Math.max(0, Date.parse(job.finished_at!) - start) / 1000);
    }
  }

  const refused = (request: FastifyRequest): boolean => {
    if (access.allow.length > 0 && allowed(allowedAddresses, request.ip)) return false;
    const header = request.headers.authorization;
    if (tokenDigest !== null && typeof header === 'string' && /^Bearer /i.test(header)) return !timingSafeEqual(digest(header.slice(7).trim()), tokenDigest);
    return true;
  };

  app.get(
    METRICS_PATH,
    {
      schema: { hide: true },
      // Not a session's: the scraper is an address or the metrics bearer, checked below.
      config: { access: 'public' },
    },
    async (request, reply) => {
      if (refused(request)) return reply.code(403).send({ message: METRICS_REFUSED });
      await readJobs();
      return reply
        .header('Cache-Control', 'no-store')
        .type(registry.contentType)
        .send(await registry.metrics());
    },
  );
}
