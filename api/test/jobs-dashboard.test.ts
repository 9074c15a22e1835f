import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import type { JobDetails, JobsPage } from '../src/contracts/jobs';
import { runInOperator, runUnscoped } from '../src/db/operator-scope';
import { DEMO_USERS, seed } from '../src/seed';
import { JOBS_DASHBOARD_CSP, JOBS_DASHBOARD_FORBIDDEN } from '../src/web/jobs-dashboard';
import { fakeWebRoot, testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';

const ADMIN_PASSWORD = 'Admin-Password-1';
/** The demo Manager (api/src/seed). */
const MANAGER_EMAIL = 'manager@cellwise.local';

async function tokenOf(app: FastifyInstance, database: TestDatabase, email: string): Promise<string> {
  const { id } = await database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  const token = await app.auth.issueToken(id);
  if (!token) throw new Error(`no token for ${email}`);
  return token;
}

describe.each(TEST_DATABASES)('job dashboard page on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let adminToken: string;
  let managerToken: string;

  beforeAll(async () => {
    expect(DEMO_USERS.map((u) => u.email)).toContain(MANAGER_EMAIL);
    database = await kind.open();
    const started = await testApp(database);
    app = started.app;
    await seed(database.db, { ...started.config, adminPassword: ADMIN_PASSWORD, demoData: true });
    adminToken = await tokenOf(app, database, started.config.adminEmail);
    managerToken = await tokenOf(app, database, MANAGER_EMAIL);
  });

  afterAll(async () => {
    await app?.close();
    await database?.dispose();
  });

  test.each([
    ['an empty token', '/jobs?access_token='],
    ['a token that is not one', '/jobs?access_token=not-a-jwt'],
    ['a token signed with another secret', '/jobs?access_token=eyJhbGciOiJIUzI1NiJ9.eyJ1c2VySWQiOjF9.c2lnbmF0dXJl'],
    ['two tokens', '/jobs?access_token=a&access_token=b'],
  ])('%s goes to sign-in', async (_case, url) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/auth/login');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  test('a token of a deactivated user goes to sign-in', async () => {
    const { id } = await database.db.selectFrom('users').select('id').where('email', '=', MANAGER_EMAIL).executeTakeFirstOrThrow();
    const token = await app.auth.issueToken(id);
    await database.db.updateTable('users').set({ deactivated_at: new Date().toISOString() }).where('id', '=', id).execute();
    try {
      const response = await app.inject({ method: 'GET', url: `/jobs?access_token=${token}` });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe('/auth/login');
    } finally {
      await database.db.updateTable('users').set({ deactivated_at: null }).where('id', '=', id).execute();
    }
  });

  test("a Manager's token gets the 403 page, with a way back to the console", async () => {
    const response = await app.inject({ method: 'GET', url: `/jobs?access_token=${managerToken}` });
    expect(response.statusCode).toBe(403);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['content-security-policy']).toBe(JOBS_DASHBOARD_CSP);
    expect(response.body).toContain(JOBS_DASHBOARD_FORBIDDEN);
    expect(response.body).toContain('href="/home"');
    expect(response.body).not.toContain(managerToken);
    expect(response.body).not.toMatch(/<script(?![^>]*\bsrc=)/);
  });

  test("an Administrator's token gets the page, under a CSP that allows no inline script", async () => {
    const response = await app.inject({ method: 'GET', url: `/jobs?access_token=${adminToken}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-store');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toBe(JOBS_DASHBOARD_CSP);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.body).toContain('<title>Job Dashboard — Cellwise</title>');
    expect(response.body).toContain('src="/jobs/dashboard.js"');
    expect(response.body).toContain('href="/jobs/dashboard.css"');
    // Every script is a file of this origin; no inline script, no inline handler.
    expect(response.body).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(response.body).not.toMatch(/\son[a-z]+=/i);
    expect(response.body).not.toContain(adminToken);
  });

  test('without a token in the address (a reload), the page is served and its script finds a token itself', async () => {
    for (const url of ['/jobs', '/jobs/', '/Jobs']) {
      const response = await app.inject({ method: 'GET', url });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 200 });
      expect(response.body).toContain('<title>Job Dashboard — Cellwise</title>');
    }
  });

  test('the script and the stylesheet are served, revalidated on every load', async () => {
    const script = await app.inject({ method: 'GET', url: '/jobs/dashboard.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(script.headers['cache-control']).toBe('no-cache');
    expect(script.body).toContain('/api/Jobs/GetJobs');
    expect(script.body).toContain('vdfptAppToken');
    const style = await app.inject({ method: 'GET', url: '/jobs/dashboard.css' });
    expect(style.statusCode).toBe(200);
    expect(style.headers['content-type']).toMatch(/^text\/css/);
    expect(style.body).toContain('#0b6e79');
  });

  test('the page files are the ones under api/public/jobs, which the API ships', () => {
    const dir = path.join(__dirname, '../public/jobs');
    expect(fs.readdirSync(dir).sort()).toEqual(['dashboard.css', 'dashboard.js', 'index.html']);
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

  test('the page has an Operator column, filled from the answer', () => {
    const dir = path.join(__dirname, '../public/jobs');
    expect(fs.readFileSync(path.join(dir, 'index.html'), 'utf8')).toMatch(/<th scope="col">Owner<\/th>\s*<th scope="col">Operator<\/th>/);
    expect(fs.readFileSync(path.join(dir, 'dashboard.js'), 'utf8')).toContain("h('td', { 'data-label': 'Operator' }, job.operator ?? muted('—'))");
  });

  test('the calls the page makes answer it with the token as a bearer header only', async () => {
    const answer = await app.inject({ method: 'GET', url: '/api/Jobs/GetJobs?page=1&size=20', headers: { authorization: `Bearer ${adminToken}` } });
    expect(answer.statusCode).toBe(200);
    // The query token is not accepted by the API's job calls: the page must send the header.
    const byQuery = await app.inject({ method: 'GET', url: `/api/Jobs/GetJobs?access_token=${adminToken}` });
    expect(byQuery.statusCode).toBe(401);
  });
});

describe('job dashboard page in the logs', () => {
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
      const response = await app.inject({ method: 'GET', url: `/jobs?access_token=${token}` });
      expect(response.statusCode).toBe(200);
      const log = written.join('');
      expect(log).toContain('/jobs?access_token=[Redacted]');
      expect(log).not.toContain(token);
    } finally {
      spy.mockRestore();
      await app.close();
    }
  });
});
