import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import type { Redis } from 'ioredis';
import { Client } from 'pg';
import { TRACKING_MESSAGES, type UserNotification } from 'contracts';
import { JOB_MESSAGES } from '../src/jobs/model';
import { fakeWebRoot } from './support/app';
import { largePlanFile, multipart } from './fixtures/tracking/workbooks';
import { Inbox, requireRedis, sleep, TEST_REDIS_URL, waitFor } from './support/realtime';
import {
  request,
  scratchDatabase,
  SCALEOUT_POSTGRES_URL,
  startApiProcess,
  startStickyProxy,
  type Answer,
  type ApiProcess,
  type ScratchDatabase,
  type StickyProxy,
} from './support/scaleout';

const A = 0;
const B = 1;
const ADMIN = { email: 'admin@scaleout.test', password: 'Quartz-lantern-9147-Scaleout' };
/** Rows of the workbook whose import is killed: long enough to be caught mid-read on a busy CI machine. */
const BIG_ROWS = 20_000;
const SMALL_ROWS = 200;

interface JobRow {
  id: string;
  kind: string;
  state: string;
  attempts: number;
  instance_id: string | null;
  progress: number;
  error: string | null;
}

/**
 * The proof that the API scales out (issue 44): two real API processes (`node api/dist/main.js`) on one
 * PostgreSQL database and one Redis, behind a real reverse proxy (http-proxy, sticky by cookie), one DATA_DIR
 * and one JWT_SECRET. Needs PostgreSQL and Redis: without them it fails, never skips.
 */
describe('two API processes behind a reverse proxy, on one PostgreSQL and one Redis', () => {
  let redis: Redis;
  let database: ScratchDatabase;
  let pg: Client;
  let a: ApiProcess;
  let b: ApiProcess;
  let proxy: StickyProxy;
  let token: string;
  const dirs: string[] = [];
  const hubs: HubConnection[] = [];

  const call = (backend: number, url: string, options: { method?: string; headers?: Record<string, string>; body?: Buffer | string; from?: string } = {}) =>
    request(`${proxy.url}${url}`, { ...options, headers: { authorization: `Bearer ${token}`, cookie: proxy.pin(backend), ...options.headers } });

  async function upload(backend: number, content: Buffer): Promise<string> {
    const body = multipart([{ name: 'file', filename: 'plan.xlsx', content }]);
    const res = await call(backend, '/api/File/Upload', { method: 'POST', headers: body.headers, body: body.payload });
    expect(res.status).toBe(200);
    return res.json<{ uploadId: string }>().uploadId;
  }
  const importPlan = (backend: number, uploadId: string) => call(backend, `/api/Tracker/CommissioningPlanUpload?filePath=${uploadId}`);

  async function planWorkbook(rows: number): Promise<Buffer> {
    const file = path.join(dirs[0]!, `plan-${rows}.xlsx`);
    await largePlanFile(file, rows);
    return fs.readFileSync(file);
  }

  /** The official client, through the proxy, pinned to one instance by its cookie. */
  async function hubClient(backend: number, transport = HttpTransportType.WebSockets): Promise<Inbox<UserNotification>> {
    const connection = new HubConnectionBuilder()
      .withUrl(`${proxy.url}/api/notificationhub`, {
        accessTokenFactory: () => token,
        transport,
        headers: { cookie: proxy.pin(backend) },
      })
      .configureLogging(LogLevel.None)
      .build();
    const inbox = new Inbox<UserNotification>();
    connection.on('NewNotification', (notification: UserNotification) => inbox.push(notification));
    hubs.push(connection);
    await connection.start();
    return inbox;
  }

  const jobs = async (kind: string) => (await pg.query<JobRow>('select * from jobs where kind = $1 order by created_at', [kind])).rows;
  const planRows = async () => Number((await pg.query<{ n: string }>('select count(*) as n from tracking_commissioning_plan')).rows[0]!.n);
  /** The whole data set in one value: equal only if not one row was added, removed or changed. */
  const planDigest = async () =>
    (await pg.query<{ digest: string | null }>("select md5(string_agg(p::text, '|' order by p.id)) as digest from tracking_commissioning_plan p")).rows[0]!
      .digest;

  beforeAll(async () => {
    // Both fail the suite, with the address they tried, when the service is missing.
    redis = await requireRedis();
    database = await scratchDatabase(SCALEOUT_POSTGRES_URL);
    pg = new Client({ connectionString: database.url });
    await pg.connect();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-scaleout-'));
    const webRoot = fakeWebRoot();
    dirs.push(dataDir, webRoot);
    // What instances must share (README "Scale-out"): the database, Redis, the files and the token secret,
    // here the one the first of them generates into the shared DATA_DIR (JWT_SECRET unset).
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      DATA_DIR: dataDir,
      WEB_ROOT: webRoot,
      TRUST_PROXY: '127.0.0.1',
      DEMO_DATA: '0',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
    };
    // Started together on an empty database, as an orchestrator starts replicas: both migrate and seed it.
    [a, b] = await Promise.all([startApiProcess('A', env), startApiProcess('B', env)]);
    proxy = await startStickyProxy([a.url, b.url]);
    // Tracking needs the Operations project (the demo data would give it); an Administrator's setting-up, done directly.
    const admin = await pg.query<{ id: number }>('select id from users where email = $1', [ADMIN.email]);
    const operator = await pg.query<{ id: number }>("insert into operators (name, avatar, created_at) values ('Cellwise', null, now()::text) returning id");
    const project = await pg.query<{ id: number }>("insert into projects (name, operator_id) values ('Operations', $1) returning id", [operator.rows[0]!.id]);
    await pg.query('insert into user_projects (user_id, project_id) values ($1, $2)', [admin.rows[0]!.id, project.rows[0]!.id]);
    // The operator the Administrator works in: engineering data is each operator's (docs/tenancy.md).
    await pg.query('insert into user_operators (user_id, operator_id) values ($1, $2)', [admin.rows[0]!.id, operator.rows[0]!.id]);
    await pg.query('update users set operator_id = $1 where id = $2', [operator.rows[0]!.id, admin.rows[0]!.id]);
    const login = await request(`${proxy.url}/api/auth/login`, {
      method: 'POST',
      // Pinned, so the round-robin of new clients starts at A for the first test.
      headers: { 'content-type': 'application/json', cookie: proxy.pin(A) },
      body: JSON.stringify(ADMIN),
    });
    expect(login.status).toBe(200);
    token = login.json<{ token: string }>().token;
  }, 120_000);

  afterEach(async () => {
    await Promise.all(hubs.splice(0).map((hub) => hub.stop()));
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await proxy?.close();
    await pg?.end();
    await database?.drop();
    redis?.disconnect();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  test('new clients are spread over both instances and kept on theirs; the client address is the one the proxy saw', async () => {
    const first = await request(`${proxy.url}/api/health`);
    const second = await request(`${proxy.url}/api/health`);
    for (const res of [first, second]) {
      expect(res.status).toBe(200);
      expect(res.json()).toMatchObject({ status: 'ok', database: { dialect: 'postgres', reachable: true }, backplane: { kind: 'redis', reachable: true } });
    }
    expect([first.headers['set-cookie']?.[0], second.headers['set-cookie']?.[0]].map((c) => c?.split(';')[0])).toEqual([proxy.pin(A), proxy.pin(B)]);
    const pinned = proxy.served.length;
    for (let i = 0; i < 4; i += 1) expect((await call(B, '/api/account/GetUserInfo', { method: 'POST' })).status).toBe(200);
    expect(proxy.served.slice(pinned).map((s) => s.backend)).toEqual([B, B, B, B]);

    // From 127.0.0.10, with an X-Forwarded-For of its own making: B believes the proxy (TRUST_PROXY) and only it.
    const created = await call(B, '/api/Operators/CreateOperator', {
      method: 'POST',
      from: '127.0.0.10',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.7' },
      body: JSON.stringify({ name: 'Scale-out Operator' }),
    });
    expect(created.status).toBe(200);
    const audit = await pg.query<{ address: string }>("select address from audit_trail where summary = 'Created operator Scale-out Operator'");
    expect(audit.rows).toEqual([{ address: '127.0.0.10' }]);
  });

  test('consoles connected to A, over each transport, are told the end of an import that B ran, once', async () => {
    const served = proxy.served.length;
    const consoles = [
      await hubClient(A, HttpTransportType.WebSockets),
      await hubClient(A, HttpTransportType.ServerSentEvents),
      await hubClient(A, HttpTransportType.LongPolling),
    ];
    const hubRequests = proxy.served.slice(served).filter((s) => s.path.startsWith('/api/notificationhub'));
    // Negotiate, then the socket, the event stream and the polls: all kept on A by the cookie.
    expect(hubRequests.filter((s) => s.upgrade)).toHaveLength(1);
    expect(new Set(hubRequests.map((s) => s.backend))).toEqual(new Set([A]));
    const uploadId = await upload(B, await planWorkbook(SMALL_ROWS));
    // A frozen takes no job: B's workers claim it. A thaws as soon as B has it, and then hears of its end over Redis.
    a.freeze();
    let answer: Promise<Answer>;
    try {
      answer = importPlan(B, uploadId);
      await waitFor(async () => (await jobs('tracking.import')).some((j) => j.instance_id !== null), 10_000, 'B to claim the import');
    } finally {
      a.thaw();
    }
    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ rows: SMALL_ROWS });
    const title = `${TRACKING_MESSAGES.commissioningPlanImported} ${SMALL_ROWS} rows from plan.xlsx.`;
    for (const onA of consoles) expect((await onA.next(5000, 'the notification on A')).title).toBe(title);
    const [job] = await jobs('tracking.import');
    expect(job).toMatchObject({ state: 'succeeded', attempts: 1 });
    expect(await planRows()).toBe(SMALL_ROWS);
    // Once: neither a second delivery on A nor a second notification stored.
    await sleep(500);
    expect(consoles.map((onA) => onA.size)).toEqual([0, 0, 0]);
    const stored = await pg.query('select id from notifications where title = $1', [title]);
    expect(stored.rowCount).toBe(1);
  });

  test('exports queued on A each run once, whichever instance takes them', async () => {
    const before = Number((await pg.query<{ n: string }>('select count(*) as n from file_exports')).rows[0]!.n);
    const answers = await Promise.all(Array.from({ length: 4 }, () => call(A, '/api/Tracker/GetCommissioningPlanExcel')));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const exported = await jobs('tracking.export');
    expect(exported).toHaveLength(4);
    for (const job of exported) expect(job).toMatchObject({ state: 'succeeded', attempts: 1 });
    // A run writes one workbook: a job run twice would leave two.
    expect(Number((await pg.query<{ n: string }>('select count(*) as n from file_exports')).rows[0]!.n) - before).toBe(4);
    const files = new Set(answers.map((r) => r.json<{ file: string }>().file));
    expect(files.size).toBe(4);
  });

  test('kill -9 of A in the middle of an import: B fails the job, the data set is untouched, and importing again applies it once', async () => {
    const digestBefore = await planDigest();
    expect(await planRows()).toBe(SMALL_ROWS);
    const uploadId = await upload(A, await planWorkbook(BIG_ROWS));
    const onB = await hubClient(B);
    // B frozen: A claims the import.
    b.freeze();
    let answer: Promise<Answer>;
    let running: JobRow | undefined;
    try {
      answer = importPlan(A, uploadId);
      await waitFor(
        async () => {
          running = (await jobs('tracking.import')).find((j) => j.state === 'running');
          return running !== undefined;
        },
        10_000,
        'A to claim the import',
      );
    } finally {
      b.thaw();
    }
    const jobId = running!.id;
    // Mid-read: rows are being validated into A's temporary table, some of them already.
    await waitFor(
      async () => (await pg.query<{ progress: number }>('select progress from jobs where id = $1', [jobId])).rows[0]!.progress >= 5,
      20_000,
      'the import to be under way',
    );
    await a.kill();
    // The proxy answers the caller whose instance died; it does not hang.
    expect((await answer).status).toBe(502);

    // B finds the job A left (its heartbeat stops), and fails it: an import is not repeated by itself.
    await waitFor(
      async () => (await pg.query<JobRow>('select state from jobs where id = $1', [jobId])).rows[0]!.state !== 'running',
      50_000,
      'B to end the job',
    );
    const [failed] = (await pg.query<JobRow>('select * from jobs where id = $1', [jobId])).rows;
    expect(failed).toMatchObject({ state: 'failed', attempts: 1, error: JOB_MESSAGES.interrupted });
    expect((await onB.next(5000, 'the interruption on B')).title).toBe(`Tracking import: ${JOB_MESSAGES.interrupted}`);
    expect(await planRows()).toBe(SMALL_ROWS);
    expect(await planDigest()).toBe(digestBefore);

    // The same upload again, now on B (A is gone, the file is in the shared DATA_DIR): applied whole, once.
    const again = await importPlan(B, uploadId);
    expect(again.status).toBe(200);
    expect(again.json()).toMatchObject({ rows: BIG_ROWS });
    expect(await planRows()).toBe(BIG_ROWS);
    const imports = await jobs('tracking.import');
    expect(imports.map((j) => [j.state, j.attempts])).toEqual([
      ['succeeded', 1],
      ['failed', 1],
      ['succeeded', 1],
    ]);
  }, 120_000);
});
