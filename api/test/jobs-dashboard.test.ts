import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import type { JobDetails, JobsPage } from 'contracts';
import { runInOperator, runUnscoped } from '../src/db/operator-scope';
import { DEMO_USERS, seed } from '../src/seed';
import { fakeWebRoot, testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';

/**
 * The job dashboard is a console page, /management/jobs of mfe-management (docs/architecture.md#how-a-job-flows),
 * opened from the Administrator's menu in a new tab with the session token as `access_token`: the API
 * serves it as any console page and answers its calls, Jobs/*, with the token as a bearer header.
 */
const DASHBOARD = '/management/jobs';
const ADMIN_PASSWORD = 'Admin-Password-1';
/** The demo Manager (api/src/seed). */
const MANAGER_EMAIL = 'manager@cellwise.local';

async function tokenOf(app: FastifyInstance, database: TestDatabase, email: string): Promise<string> {
  const { id } = await database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  const token = await app.auth.issueToken(id);
  if (!token) throw new Error(`no token for ${email}`);
  return token;
}

describe.each(TEST_DATABASES)('job dashboard on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let adminToken: string;

  beforeAll(async () => {
    expect(DEMO_USERS.map((u) => u.email)).toContain(MANAGER_EMAIL);
    database = await kind.open();
    const started = await testApp(database);
    app = started.app;
    await seed(database.db, { ...started.config, adminPassword: ADMIN_PASSWORD, demoData: true });
    adminToken = await tokenOf(app, database, started.config.adminEmail);
  });

  afterAll(async () => {
    await app?.close();
    await database?.dispose();
  });

  test('the link opens the console page: the console, which takes the token out of the address itself; the answer never carries the token', async () => {
    const response = await app.inject({ method: 'GET', url: `${DASHBOARD}?access_token=${adminToken}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('<div id="root">');
    expect(response.body).not.toContain(adminToken);
    // The same page for anyone: the console's guard and the API's access hook judge the session, not this answer.
    const anonymous = await app.inject({ method: 'GET', url: `${DASHBOARD}?access_token=not-a-jwt` });
    expect([anonymous.statusCode, anonymous.body]).toEqual([200, response.body]);
  });

  test('the hand-written page is gone: /jobs is no page of its own, and its script and stylesheet are not served', async () => {
    expect(fs.existsSync(path.join(__dirname, '../public/jobs'))).toBe(false);
    const page = await app.inject({ method: 'GET', url: '/jobs' });
    // The console's fallback (its router shows the 404 page), not a page with a CSP of its own.
    expect(page.body).toContain('<div id="root">');
    expect(page.body).not.toContain('dashboard.js');
    for (const asset of ['/jobs/dashboard.js', '/jobs/dashboard.css']) expect((await app.inject({ method: 'GET', url: asset })).statusCode).toBe(404);
  });

  test('every job answers the operator it was submitted in, by id and name; system work has none', async () => {
    const operators = new Map((await database.db.selectFrom('operators').select(['id', 'name']).execute()).map((o) => [o.name, o.id]));
    const meo = operators.get('MEO')!;
    const nos = operators.get('NOS')!;
    const { id: managerId } = await database.db.selectFrom('users').select('id').where('email', '=', MANAGER_EMAIL).executeTakeFirstOrThrow();
    app.jobs.register({ kind: 'test.operator-column', label: 'Operator column', idempotent: false, run: () => Promise.resolve({ message: 'ok' }) });
    const inMeo = await runInOperator(meo, () => app.jobs.run('test.operator-column', managerId, {}));
    const inNos = await runInOperator(nos, () => app.jobs.run('test.operator-column', managerId, {}));
    const system = await runUnscoped(() => app.jobs.run('test.operator-column', null, {}));

    const answer = await app.inject({ url: '/api/Jobs/GetJobs?kind=test.operator-column', headers: { authorization: `Bearer ${adminToken}` } });
    expect(answer.statusCode).toBe(200);
    const byId = new Map(answer.json<JobsPage>().rows.map((row) => [row.id, [row.operatorId, row.operator]]));
    // The dashboard lists every operator's jobs, whichever operator the Administrator is in.
    expect([byId.get(inMeo.id), byId.get(inNos.id), byId.get(system.id)]).toEqual([
      [meo, 'MEO'],
      [nos, 'NOS'],
      [null, null],
    ]);
    const one = await app.inject({ url: `/api/Jobs/GetJob?id=${inNos.id}`, headers: { authorization: `Bearer ${adminToken}` } });
    expect(one.json<JobDetails>().job).toMatchObject({ operatorId: nos, operator: 'NOS' });
  });

  test('the calls the page makes answer it with the token as a bearer header only', async () => {
    const answer = await app.inject({ method: 'GET', url: '/api/Jobs/GetJobs?page=1&size=10', headers: { authorization: `Bearer ${adminToken}` } });
    expect(answer.statusCode).toBe(200);
    // The query token is not accepted by the API's job calls: the page must send the header.
    const byQuery = await app.inject({ method: 'GET', url: `/api/Jobs/GetJobs?access_token=${adminToken}` });
    expect(byQuery.statusCode).toBe(401);
  });
});

describe('job dashboard link in the logs', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await TEST_DATABASES[0]!.open();
  });

  afterAll(async () => {
    await database?.dispose();
  });

  test('the token in the address is never written to the log', async () => {
    const webRoot = fakeWebRoot();
    const config = loadConfig({ WEB_ROOT: webRoot, DATA_DIR: path.join(webRoot, 'data'), LOG_LEVEL: 'info' });
    const written: string[] = [];
    // Replaced before the app is built: pino then writes its lines through process.stdout.write.
    const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const app = await buildApp({ config, db: database.db, dialect: database.dialect });
    try {
      await app.ready();
      await seed(database.db, { ...config, adminPassword: ADMIN_PASSWORD, demoData: false });
      const token = await tokenOf(app, database, config.adminEmail);
      const response = await app.inject({ method: 'GET', url: `${DASHBOARD}?access_token=${token}` });
      expect(response.statusCode).toBe(200);
      const log = written.join('');
      expect(log).toContain(`${DASHBOARD}?access_token=[Redacted]`);
      expect(log).not.toContain(token);
    } finally {
      spy.mockRestore();
      await app.close();
    }
  });
});
