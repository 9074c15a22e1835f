import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { JobDetails, JobsPage } from 'contracts';
import { InProcessQueue, JOB_MESSAGES, JobRefusal, type JobKind, type JobRecord } from '../src/jobs';
import { RETENTION_KIND } from '../src/jobs/retention';
import { seed } from '../src/seed';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { largePlanFile, multipart, PLAN_HEADER, planRow, removeTempDirs, tempDir, workbook } from './fixtures/tracking/workbooks';
import { waitFor } from './support/realtime';

const ADMIN_PASSWORD = 'Admin-Password-1';
const fastTimings = { heartbeatMs: 100, staleAfterMs: 400, progressEveryMs: 0, pollMs: 20 };

/** A promise with its resolve at hand: a job that runs until the test lets it finish. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

async function adminIdOf(database: TestDatabase): Promise<number> {
  return (await database.db.selectFrom('users').select('id').where('email', '=', 'admin@cellwise.local').executeTakeFirstOrThrow()).id;
}

describe.each(TEST_DATABASES)('jobs on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let owner: number;
  const gates = new Map<string, ReturnType<typeof deferred<void>>>();

  const echo: JobKind<{ value: string; steps?: number }> = {
    kind: 'test.echo',
    label: 'Echo',
    idempotent: true,
    async run({ params, progress }) {
      for (let i = 1; i <= (params.steps ?? 0); i++) progress((i / params.steps!) * 100, `step ${i}`);
      return { message: `echo ${params.value}` };
    },
  };
  const refuse: JobKind<{ problem: string }> = {
    kind: 'test.refuse',
    label: 'Refusal',
    idempotent: false,
    async run({ params }) {
      throw new JobRefusal(400, { message: params.problem, errors: [{ row: 2 }] });
    },
  };
  const crash: JobKind<Record<string, never>> = {
    kind: 'test.crash',
    label: 'Crash',
    idempotent: false,
    async run() {
      throw new Error('disk on fire');
    },
  };
  const gated: JobKind<{ gate: string }> = {
    kind: 'test.gated',
    label: 'Gated',
    idempotent: false,
    async run({ params }) {
      await gates.get(params.gate)?.promise;
      return { message: 'opened' };
    },
  };

  beforeAll(async () => {
    database = await kind.open();
    ({ app } = await testApp(database, { ADMIN_PASSWORD }, { jobs: { timings: fastTimings, kinds: [echo, refuse, crash, gated] as JobKind<never>[] } }));
    await seed(database.db, app.services.config);
    owner = await adminIdOf(database);
  });
  afterAll(async () => {
    for (const gate of gates.values()) gate.resolve();
    await app.close();
    await database.dispose();
  });

  test('a job’s life: queued, running with progress, succeeded with its answer; its owner is notified', async () => {
    const job = await app.jobs.enqueue('test.echo', owner, { value: 'hello', steps: 4 });
    expect(job).toMatchObject({ kind: 'test.echo', ownerId: owner, state: 'queued', params: { value: 'hello', steps: 4 }, progress: 0 });
    const done = await app.jobs.waitFor(job.id);
    expect(done).toMatchObject({ state: 'succeeded', progress: 100, outcome: { status: 200, body: { message: 'echo hello' } }, error: null, attempts: 1 });
    expect(Date.parse(done.startedAt!)).toBeGreaterThanOrEqual(Date.parse(done.createdAt));
    expect(Date.parse(done.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(done.startedAt!));
    // The notification follows the row's last write.
    const notes = () =>
      database.db.selectFrom('notifications').select(['title', 'icon']).where('user_id', '=', owner).where('key', '=', 'job-test.echo').execute();
    await waitFor(async () => (await notes()).length > 0, 2000, 'the notification');
    expect(await notes()).toEqual([{ title: 'Echo: done', icon: 'success' }]);
  });

  test('a refusal fails the job with the answer its caller gets; a crash fails it without showing the cause', async () => {
    const refused = await app.jobs.run('test.refuse', owner, { problem: 'Row 2 is wrong.' });
    expect(refused).toMatchObject({
      state: 'failed',
      error: 'Row 2 is wrong.',
      outcome: { status: 400, body: { message: 'Row 2 is wrong.', errors: [{ row: 2 }] } },
    });
    const crashed = await app.jobs.run('test.crash', owner, {});
    expect(crashed).toMatchObject({ state: 'failed', error: 'disk on fire', outcome: { status: 500, body: { message: JOB_MESSAGES.serverFault } } });
  });

  test('a queued job can be cancelled; a failed idempotent one retried', async () => {
    // Two gated jobs fill both places of the queue, so the third waits.
    gates.set('a', deferred());
    gates.set('b', deferred());
    const a = await app.jobs.enqueue('test.gated', owner, { gate: 'a' });
    const b = await app.jobs.enqueue('test.gated', owner, { gate: 'b' });
    const waiting = await app.jobs.enqueue('test.echo', owner, { value: 'later' });
    expect(await app.jobs.cancel(waiting.id)).toBe(true);
    gates.get('a')!.resolve();
    gates.get('b')!.resolve();
    await app.jobs.waitFor(a.id);
    await app.jobs.waitFor(b.id);
    const cancelled = await app.jobs.waitFor(waiting.id);
    expect(cancelled).toMatchObject({ state: 'cancelled', error: JOB_MESSAGES.cancelled, attempts: 0 });
    expect(await app.jobs.cancel(a.id)).toBe(false);

    expect(await app.jobs.retry(cancelled)).toBe(true);
    expect(await app.jobs.waitFor(waiting.id)).toMatchObject({ state: 'succeeded', attempts: 1 });
    const refused = await app.jobs.run('test.refuse', owner, { problem: 'no' });
    expect(await app.jobs.retry(refused)).toBe(false);
  });

  test('a job interrupted by the end of its process is failed on the next start (or queued again when it can be repeated)', async () => {
    gates.set('never', deferred());
    const stuck = await app.jobs.enqueue('test.gated', owner, { gate: 'never' });
    const repeatable = await app.jobs.enqueue('test.echo', owner, { value: 'again' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // What a dead process leaves: rows still 'running' (the repeatable one made to look so).
    await database.db.updateTable('jobs').set({ state: 'running', heartbeat_at: '2000-01-01T00:00:00.000Z' }).where('id', '=', repeatable.id).execute();
    expect((await database.db.selectFrom('jobs').select('state').where('id', '=', stuck.id).executeTakeFirstOrThrow()).state).toBe('running');

    const { app: next } = await testApp(
      database,
      { ADMIN_PASSWORD },
      { jobs: { timings: fastTimings, queue: new InProcessQueue(), kinds: [echo, gated] as JobKind<never>[] } },
    );
    try {
      // testApp readies the app, which starts its runner; a PostgreSQL deployment finds them by their stale heartbeat.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const failed = await next.jobs.waitFor(stuck.id);
      expect(failed).toMatchObject({ state: 'failed', error: JOB_MESSAGES.interrupted, outcome: { status: 500, body: { message: JOB_MESSAGES.interrupted } } });
      expect(await next.jobs.waitFor(repeatable.id)).toMatchObject({ state: 'succeeded', outcome: { body: { message: 'echo again' } } });
      const told = async () =>
        (await database.db.selectFrom('notifications').select('title').where('user_id', '=', owner).where('key', '=', 'job-test.gated').execute()).map(
          (n) => n.title,
        );
      await waitFor(async () => (await told()).includes(`Gated: ${JOB_MESSAGES.interrupted}`), 2000, 'the interruption notice');
    } finally {
      gates.get('never')!.resolve();
      // The first runner's late answer must not overwrite the verdict.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await database.db.selectFrom('jobs').select('state').where('id', '=', stuck.id).executeTakeFirstOrThrow()).state).toBe('failed');
      await next.close();
    }
  });
});

describe.each(TEST_DATABASES)('job retention on $name', (kind) => {
  test('finished jobs older than JOB_RETENTION_DAYS are removed by a job of its own; newer and unfinished ones stay', async () => {
    const database = await kind.open();
    const { app } = await testApp(database, { ADMIN_PASSWORD, JOB_RETENTION_DAYS: '2' }, { jobs: { timings: fastTimings } });
    try {
      // The run every start queues: let it finish first, so the one below is the one that meets the old jobs.
      const retentionRuns = () => database.db.selectFrom('jobs').select('state').where('kind', '=', RETENTION_KIND).execute();
      await waitFor(
        async () => {
          const runs = await retentionRuns();
          return runs.length > 0 && runs.every((r) => r.state === 'succeeded');
        },
        5000,
        'the start-up retention run',
      );
      const day = 24 * 60 * 60 * 1000;
      const at = (daysAgo: number) => new Date(Date.now() - daysAgo * day).toISOString();
      const row = (id: string, state: string, finishedDaysAgo: number | null) => ({
        id,
        kind: 'tracking.export',
        owner_id: null,
        params: '{}',
        state,
        progress: 0,
        progress_text: null,
        created_at: at(10),
        started_at: at(10),
        finished_at: finishedDaysAgo === null ? null : at(finishedDaysAgo),
        result: null,
        error: null,
        attempts: 1,
        instance_id: null,
        heartbeat_at: null,
      });
      await database.db
        .insertInto('jobs')
        .values([row('old-done', 'succeeded', 3), row('old-failed', 'failed', 5), row('recent', 'succeeded', 1), row('waiting', 'queued', null)])
        .execute();
      const retention = await app.jobs.run(RETENTION_KIND, null, {});
      expect(retention).toMatchObject({ state: 'succeeded', outcome: { body: { jobs: 2 } } });
      const left = (await database.db.selectFrom('jobs').select('id').where('kind', '=', 'tracking.export').execute()).map((r) => r.id).sort();
      expect(left).toEqual(['recent', 'waiting']);
    } finally {
      await app.close();
      await database.dispose();
    }
  });
});

// Two API instances on one PostgreSQL database share the work through pg-boss: each job runs once.
const postgres = TEST_DATABASES.find((k) => k.name === 'postgres');
// CI sets DATABASE_URL, so this runs there; without PostgreSQL there is no second instance to share with.
if (postgres)
  describe('jobs shared by two instances on PostgreSQL (pg-boss)', () => {
    test('a start that finds a repeatable job a dead instance left queues it again through pg-boss and runs it', async () => {
      const database = await postgres!.open();
      let runs = 0;
      const echo: JobKind<{ value: string }> = {
        kind: 'test.echo',
        label: 'Echo',
        idempotent: true,
        async run({ params }) {
          runs += 1;
          return { message: `echo ${params.value}` };
        },
      };
      const env = { ADMIN_PASSWORD, DATABASE_URL: process.env.DATABASE_URL };
      const jobs = { timings: fastTimings, kinds: [echo] as JobKind<never>[] };
      try {
        const first = await testApp(database, env, { jobs });
        const job = await first.app.jobs.enqueue('test.echo', null, { value: 'again' });
        expect(await first.app.jobs.waitFor(job.id)).toMatchObject({ state: 'succeeded' });
        await first.app.close();
        // What a dead instance leaves: its row still 'running', its heartbeat long stale.
        await database.db.updateTable('jobs').set({ state: 'running', heartbeat_at: '2000-01-01T00:00:00.000Z' }).where('id', '=', job.id).execute();
        // The next start queues it again before its own workers start (pg-boss refused a send before its start).
        const next = await testApp(database, env, { jobs });
        try {
          expect(next.app.jobs.queueKind).toBe('pg-boss');
          expect(await next.app.jobs.waitFor(job.id)).toMatchObject({ state: 'succeeded', outcome: { body: { message: 'echo again' } } });
          expect(runs).toBe(2);
        } finally {
          await next.app.close();
        }
      } finally {
        await database.dispose();
      }
    });

    test('100 jobs, each run exactly once, by one of the two', async () => {
      const database = await postgres!.open();
      const runs = new Map<string, number>();
      const count: JobKind<{ n: number }> = {
        kind: 'test.count',
        label: 'Count',
        idempotent: false,
        async run({ jobId }) {
          runs.set(jobId, (runs.get(jobId) ?? 0) + 1);
          await new Promise((resolve) => setTimeout(resolve, 5));
          return { message: 'counted' };
        },
      };
      const env = { ADMIN_PASSWORD, DATABASE_URL: process.env.DATABASE_URL };
      // Neither instance stops here: a heartbeat late under a loaded CI machine must not pass a job off as stale.
      const jobs = { timings: { ...fastTimings, staleAfterMs: 10_000 }, kinds: [count] as JobKind<never>[] };
      const one = await testApp(database, env, { jobs });
      const two = await testApp(database, env, { jobs });
      try {
        expect([one.app.jobs.queueKind, two.app.jobs.queueKind]).toEqual(['pg-boss', 'pg-boss']);
        expect(one.app.jobs.instanceId).not.toBe(two.app.jobs.instanceId);
        const queued: JobRecord[] = [];
        for (let n = 0; n < 100; n++) queued.push(await (n % 2 ? one : two).app.jobs.enqueue('test.count', null, { n }));
        const done = await Promise.all(queued.map((j) => one.app.jobs.waitFor(j.id)));
        expect(done.filter((j) => j.state !== 'succeeded').map((j) => [j.state, j.error])).toEqual([]);
        expect(runs.size).toBe(100);
        expect([...runs.values()].every((n) => n === 1)).toBe(true);
        const instances = await database.db.selectFrom('jobs').select('instance_id').distinct().execute();
        expect(instances.length).toBe(2);
      } finally {
        await one.app.close();
        await two.app.close();
        await database.dispose();
      }
    });
  });

describe.each(TEST_DATABASES)('jobs of the tracking import on $name', (kind) => {
  let database: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    database = await kind.open();
    dir = tempDir();
  });
  afterAll(async () => {
    await database.dispose();
    removeTempDirs();
  });

  async function uploadAs(app: FastifyInstance, token: string, content: Buffer): Promise<string> {
    const body = multipart([{ name: 'file', filename: 'plan.xlsx', content }]);
    const res = await app.inject({
      method: 'POST',
      url: '/api/File/Upload',
      payload: body.payload,
      headers: { ...body.headers, authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ uploadId: string }>().uploadId;
  }
  const planRows = async () =>
    (await database.db.selectFrom('tracking_commissioning_plan').select(['local_id', 'comments']).orderBy('id').execute()).map(
      (r) => `${r.local_id}:${r.comments}`,
    );

  test('the import runs as a job in a worker thread; the dashboard lists it; its result is its owner’s to see', async () => {
    const { app, config } = await testApp(database, { ADMIN_PASSWORD }, { jobs: { timings: fastTimings } });
    try {
      await seed(database.db, config);
      const userId = async (email: string) => (await database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
      const admin = (await app.auth.issueToken(await userId(config.adminEmail)))!;
      const os = (await app.auth.issueToken(await userId('os@cellwise.local')))!;
      const manager = (await app.auth.issueToken(await userId('manager@cellwise.local')))!;
      const as = (token: string) => ({ authorization: `Bearer ${token}` });

      const uploadId = await uploadAs(
        app,
        os,
        await workbook(
          PLAN_HEADER,
          Array.from({ length: 40 }, (_, i) => planRow(i + 1)),
        ),
      );
      const res = await app.inject({ url: `/api/Tracker/CommissioningPlanUpload?filePath=${uploadId}`, headers: as(os) });
      expect(res.json()).toEqual({ message: 'Commissioning Plan successfully imported!', rows: 40 });

      const page = await app.inject({ url: '/api/Jobs/GetJobs?kind=tracking.import', headers: as(admin) });
      expect(page.statusCode).toBe(200);
      const listed = page.json<JobsPage>();
      expect(listed.total).toBe(1);
      expect(listed.rows[0]).toMatchObject({
        kind: 'tracking.import',
        label: 'Tracking import',
        owner: 'Inês Costa',
        state: 'succeeded',
        progress: 100,
        retryable: false,
      });
      expect(listed.rows[0]!.durationMs).toBeGreaterThanOrEqual(0);
      expect(listed.kinds.map((k) => k.kind)).toEqual(expect.arrayContaining(['tracking.import', 'tracking.sync', 'tracking.export', 'network.import']));
      expect((await app.inject({ url: '/api/Jobs/GetJobs', headers: as(manager) })).statusCode).toBe(403);

      const id = listed.rows[0]!.id;
      const mine = await app.inject({ url: `/api/Jobs/GetJob?id=${id}`, headers: as(os) });
      expect(mine.json<JobDetails>()).toMatchObject({ params: { dataSet: 'commissioningPlan', uploadId }, outcome: { status: 200, body: { rows: 40 } } });
      expect((await app.inject({ url: `/api/Jobs/GetJob?id=${id}`, headers: as(manager) })).statusCode).toBe(404);
      expect((await app.inject({ url: `/api/Jobs/GetJob?id=${id}`, headers: as(admin) })).statusCode).toBe(200);
      // An import is not repeated by a retry: the owner decides whether to import that file again.
      expect((await app.inject({ method: 'POST', url: '/api/Jobs/RetryJob', payload: { id }, headers: as(admin) })).statusCode).toBe(409);
    } finally {
      await app.close();
    }
  });

  test('while an import reads its rows, the rest of the console still reads and writes (the import holds no lock)', async () => {
    const { app, config } = await testApp(database, { ADMIN_PASSWORD }, { jobs: { timings: fastTimings } });
    try {
      await seed(database.db, config);
      const adminId = await adminIdOf(database);
      const token = (await app.auth.issueToken(adminId))!;
      const as = { authorization: `Bearer ${token}` };
      const file = path.join(dir, 'reading.xlsx');
      await largePlanFile(file, 30_000);
      const uploadId = await uploadAs(app, token, fs.readFileSync(file));
      const answer = app.inject({ url: `/api/Tracker/CommissioningPlanUpload?filePath=${uploadId}`, headers: as });
      const reading = async () =>
        (
          await database.db
            .selectFrom('jobs')
            .select('progress_text')
            .where('params', 'like', `%${uploadId}%`)
            .where('state', '=', 'running')
            .executeTakeFirst()
        )?.progress_text?.startsWith('Reading rows') ?? false;
      await waitFor(reading, 20_000, 'the import to be reading rows');
      // A write and a read of the tables the import replaces, answered while it runs.
      const profile = await app.inject({
        method: 'POST',
        url: '/api/Account/UpdateSettings',
        headers: as,
        payload: {
          firstname: 'Ana',
          lastname: 'During-Import',
          // The operator the administrator is in: switching would move the next tests' work elsewhere.
          operatorId: (await database.db.selectFrom('users').select('operator_id').where('id', '=', adminId).executeTakeFirstOrThrow()).operator_id,
        },
      });
      expect(profile.statusCode).toBe(200);
      expect((await app.inject({ url: '/api/Tracker/GetCommissioningPlan', headers: as })).statusCode).toBe(200);
      expect(await reading()).toBe(true);
      expect((await answer).json()).toEqual({ message: 'Commissioning Plan successfully imported!', rows: 30_000 });
    } finally {
      await app.close();
    }
  }, 60_000);

  test('an import interrupted by closing the app mid-run changed nothing, and the next start reports it', async () => {
    const first = await testApp(database, { ADMIN_PASSWORD }, { jobs: { timings: fastTimings } });
    await seed(database.db, first.config);
    const adminId = await adminIdOf(database);
    const token = (await first.app.auth.issueToken(adminId))!;
    // The data set that must survive.
    const small = await uploadAs(
      first.app,
      token,
      await workbook(
        PLAN_HEADER,
        Array.from({ length: 12 }, (_, i) => planRow(i + 1)),
      ),
    );
    expect(
      (await first.app.inject({ url: `/api/Tracker/CommissioningPlanUpload?filePath=${small}`, headers: { authorization: `Bearer ${token}` } })).statusCode,
    ).toBe(200);
    const before = await planRows();
    expect(before.length).toBe(12);
    const file = path.join(dir, 'big.xlsx');
    await largePlanFile(file, 30_000);
    const uploadId = await uploadAs(first.app, token, fs.readFileSync(file));
    const answer = first.app.inject({ url: `/api/Tracker/CommissioningPlanUpload?filePath=${uploadId}`, headers: { authorization: `Bearer ${token}` } });
    // The big file's job: the one whose parameters name its upload.
    const row = () =>
      database.db
        .selectFrom('jobs')
        .select(['id', 'state', 'progress_text'])
        .where('kind', '=', 'tracking.import')
        .where('params', 'like', `%${uploadId}%`)
        .executeTakeFirst();
    // Mid-run: rows are being read in the thread.
    await waitFor(async () => ((await row())?.progress_text ?? '').startsWith('Reading rows'), 20_000, 'the import to be reading rows');
    await first.app.close();
    void answer.catch(() => undefined);
    const job = (await row())!;
    expect(job.state).toBe('running');
    expect(await planRows()).toEqual(before);

    const next = await testApp(database, { ADMIN_PASSWORD }, { jobs: { timings: fastTimings } });
    try {
      const judged = await next.app.jobs.waitFor(job.id);
      expect(judged).toMatchObject({ state: 'failed', error: JOB_MESSAGES.interrupted });
      expect(await planRows()).toEqual(before);
    } finally {
      await next.app.close();
    }
  }, 60_000);
});
