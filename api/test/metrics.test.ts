import { randomUUID } from 'node:crypto';
import { loadConfig } from '../src/config';
import { METRICS_REFUSED } from '../src/http/metrics';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { HttpTransportType } from '@microsoft/signalr';
import { closeInstance, connectionTokenOf, officialClient, rawClient, seedUsers, startInstance, waitFor, type RunningInstance } from './support/realtime';

/** Issue 44, fix 9: /api/metrics in Prometheus' text format, open only to METRICS_ALLOW or the METRICS_TOKEN bearer. */

const TOKEN = 'metrics-scraper-secret-0123456789-abcdef';

test('METRICS_ALLOW takes addresses and subnets, METRICS_TOKEN at least 32 characters; neither: no endpoint', () => {
  expect(loadConfig({}).metrics).toBeNull();
  expect(loadConfig({ METRICS_ALLOW: ' 127.0.0.1, 10.0.0.0/8 ,fd00::/8,::1' }).metrics).toEqual({
    allow: ['127.0.0.1', '10.0.0.0/8', 'fd00::/8', '::1'],
    token: null,
  });
  expect(loadConfig({ METRICS_TOKEN: TOKEN }).metrics).toEqual({ allow: [], token: TOKEN });
  expect(() => loadConfig({ METRICS_ALLOW: 'prometheus.internal' })).toThrow('METRICS_ALLOW: "prometheus.internal" is not an address or subnet');
  expect(() => loadConfig({ METRICS_ALLOW: '10.0.0.0/33' })).toThrow('METRICS_ALLOW: "10.0.0.0/33" has no valid prefix length');
  expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow('METRICS_TOKEN must be at least 32 characters, without spaces');
});

describe.each(TEST_DATABASES)('the metrics endpoint on $name', (kind) => {
  let database: TestDatabase;
  let instance: RunningInstance;
  let users: Map<string, number>;

  beforeAll(async () => {
    database = await kind.open();
    instance = await startInstance(database, { env: { METRICS_ALLOW: '10.1.0.0/16', METRICS_TOKEN: TOKEN } });
    users = await seedUsers(database);
  });
  afterAll(async () => {
    await closeInstance(instance);
    await database.dispose();
  });

  const scrape = (headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') => instance.app.inject({ url: '/api/metrics', headers, remoteAddress });
  /** The value of one sample line (`name{labels} value`), or undefined. */
  const sample = (text: string, line: string) => {
    const found = text.split('\n').find((l) => l.startsWith(`${line} `));
    return found === undefined ? undefined : Number(found.slice(line.length + 1));
  };

  test('refused (403) to everyone else: other addresses, a session, a wrong or missing bearer', async () => {
    const admin = (await instance.app.auth.issueToken(users.get('admin@cellwise.local')!))!;
    for (const res of [
      await scrape(),
      await scrape({}, '10.2.0.1'),
      await scrape({ authorization: `Bearer ${admin}` }),
      await scrape({ authorization: `Bearer ${TOKEN}x` }),
      await scrape({ authorization: TOKEN }),
    ]) {
      expect([res.statusCode, res.json()]).toEqual([403, { message: METRICS_REFUSED }]);
    }
    expect((await scrape({}, '10.1.200.7')).statusCode).toBe(200);
    expect((await scrape({}, '::ffff:10.1.0.9')).statusCode).toBe(200);
    expect((await scrape({ authorization: `Bearer ${TOKEN}` })).statusCode).toBe(200);
  });

  test('requests by route pattern (rate and latency), jobs by kind, hub connections, the pool and the event loop', async () => {
    for (let i = 0; i < 3; i++) expect((await instance.app.inject({ url: '/api/health' })).statusCode).toBe(200);
    await instance.app.inject({ url: '/api/Account/GetUserOperators?userId=12345' });

    // One job waiting, one that ran for 4 s, as any instance would have recorded them.
    // A kind of its own: the demo data's jobs run beside this test.
    const first = 'metrics-probe';
    const now = Date.now();
    const row = (state: string, started: number | null, finished: number | null) => ({
      id: randomUUID(),
      kind: first,
      owner_id: null,
      params: '{}',
      state,
      progress: 0,
      progress_text: null,
      created_at: new Date(now - 10_000).toISOString(),
      started_at: started === null ? null : new Date(started).toISOString(),
      finished_at: finished === null ? null : new Date(finished).toISOString(),
      result: null,
      error: null,
      attempts: 1,
      instance_id: null,
      heartbeat_at: null,
    });
    await database.db
      .insertInto('jobs')
      .values([row('succeeded', now - 2_000, now + 2_000), row('queued', null, null)])
      .execute();

    const token = (await instance.app.auth.issueToken(users.get('admin@cellwise.local')!))!;
    const client = await rawClient(instance.url, await connectionTokenOf(instance.url, token), token);
    try {
      const res = await scrape({}, '10.1.0.1');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(res.headers['cache-control']).toBe('no-store');
      const text = res.body;
      expect(sample(text, 'cellwise_http_requests_total{method="GET",route="/api/health",status="200"}')).toBe(3);
      // The pattern, never the address with its query.
      expect(sample(text, 'cellwise_http_requests_total{method="GET",route="/api/Account/GetUserOperators",status="401"}')).toBe(1);
      expect(text).not.toContain('userId=12345');
      expect(sample(text, 'cellwise_http_request_duration_seconds_count{method="GET",route="/api/health"}')).toBe(3);
      expect(sample(text, `cellwise_jobs{kind="${first}",state="queued"}`)).toBe(1);
      // Every registered kind is listed, waiting or not.
      for (const registered of instance.app.jobs.kindNames) expect(text).toContain(`cellwise_jobs{kind="${registered}",state="running"}`);
      expect(sample(text, `cellwise_job_duration_seconds_count{kind="${first}",state="succeeded"}`)).toBe(1);
      expect(sample(text, `cellwise_job_duration_seconds_sum{kind="${first}",state="succeeded"}`)).toBe(4);
      expect(sample(text, 'cellwise_hub_connections')).toBe(1);
      expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
      if (kind.name === 'postgres') expect(sample(text, 'cellwise_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
      else expect(text).not.toContain('cellwise_db_pool_connections');

      // A finished job is counted once, however often the endpoint is scraped.
      const again = (await scrape({}, '10.1.0.1')).body;
      expect(sample(again, `cellwise_job_duration_seconds_count{kind="${first}",state="succeeded"}`)).toBe(1);
    } finally {
      client.ws.close();
    }
    await waitFor(async () => sample((await scrape({}, '10.1.0.1')).body, 'cellwise_hub_connections') === 0, 3000, 'the hub connection to be closed');
  });

  test('hub connections are counted whatever their transport', async () => {
    const token = (await instance.app.auth.issueToken(users.get('admin@cellwise.local')!))!;
    const clients = [HttpTransportType.ServerSentEvents, HttpTransportType.LongPolling].map((transport) => officialClient(instance.url, token, { transport }));
    try {
      for (const { connection } of clients) await connection.start();
      expect(sample((await scrape({}, '10.1.0.1')).body, 'cellwise_hub_connections')).toBe(2);
    } finally {
      for (const { connection } of clients) await connection.stop();
    }
    await waitFor(async () => sample((await scrape({}, '10.1.0.1')).body, 'cellwise_hub_connections') === 0, 3000, 'the hub connections to be closed');
  });

  test('without METRICS_ALLOW and METRICS_TOKEN there is no such endpoint', async () => {
    const { app } = await testApp(database);
    try {
      expect((await app.inject({ url: '/api/metrics' })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});
