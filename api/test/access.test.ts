import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Capability } from 'shared-auth/policy';
import { buildApp } from '../src/app';
import { EXPIRED_MESSAGE, FORBIDDEN_MESSAGE, UNAUTHENTICATED_MESSAGE } from '../src/auth/access';
import { loadConfig, type Config } from '../src/config';
import { DEMO_PASSWORD, seed } from '../src/seed';
import { fakeWebRoot } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';

function testConfig(): Config {
  const webRoot = fakeWebRoot();
  return loadConfig({ WEB_ROOT: webRoot, DATA_DIR: path.join(webRoot, 'data'), LOG_LEVEL: 'silent', ADMIN_PASSWORD: 'Admin-Password-1' });
}

describe.each(TEST_DATABASES)('the access hook on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let config: Config;

  beforeAll(async () => {
    database = await kind.open();
    config = testConfig();
    await seed(database.db, config);
    app = await buildApp({ config, db: database.db, dialect: database.dialect }, { logger: false });
    // Tiny routes that only answer what the hook decided.
    app.get('/api/test/manage', { config: { access: 'canManage' } }, async (request) => ({ session: request.session }));
    app.get('/api/test/track', { config: { access: 'canTrack' } }, async () => ({ ok: true }));
    app.get('/api/test/open', { config: { access: 'public' } }, async (request) => ({ signedIn: request.session !== null }));
    app.get('/api/test/link', { config: { access: 'canManage', queryToken: true } }, async (request) => ({ query: request.query }));
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  async function tokenFor(email: string, password = DEMO_PASSWORD): Promise<string> {
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    expect(res.statusCode).toBe(200);
    return res.json<{ token: string }>().token;
  }
  const call = (url: string, token?: string) => app.inject({ url, headers: token ? { authorization: `Bearer ${token}` } : {} });

  test('no token: 401; a token the server refuses: 401 saying so', async () => {
    const none = await call('/api/test/manage');
    expect([none.statusCode, none.json()]).toEqual([401, { message: UNAUTHENTICATED_MESSAGE }]);
    const bad = await call('/api/test/manage', 'eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl');
    expect([bad.statusCode, bad.json()]).toEqual([401, { message: EXPIRED_MESSAGE }]);
    const basic = await app.inject({ url: '/api/test/manage', headers: { authorization: 'Basic YWRtaW46YWRtaW4=' } });
    expect(basic.statusCode).toBe(401);
  });

  test('a CellwiseOS token on a canManage route: 403', async () => {
    const res = await call('/api/test/manage', await tokenFor('os@cellwise.local'));
    expect([res.statusCode, res.json()]).toEqual([403, { message: FORBIDDEN_MESSAGE }]);
  });

  test('a Manager passes, and the route sees the session the policy judged', async () => {
    const res = await call('/api/test/manage', await tokenFor('manager@cellwise.local'));
    expect(res.statusCode).toBe(200);
    const manager = await database.db.selectFrom('users').select(['id', 'operator_id']).where('email', '=', 'manager@cellwise.local').executeTakeFirstOrThrow();
    expect(res.json()).toEqual({
      session: {
        userId: manager.id,
        principal: { authenticated: true, role: 'Manager', operatorId: manager.operator_id, projects: ['Operations', 'Rollout 5G'] },
        // The Manager belongs to their current operator, so the request works in its data.
        dataOperatorId: manager.operator_id,
      },
    });
  });

  test('project rules apply: engineering needs Operations as well as the role', async () => {
    expect((await call('/api/test/track', await tokenFor('os@cellwise.local'))).statusCode).toBe(200);
    const client = await call('/api/test/track', await tokenFor('client@cellwise.local'));
    expect([client.statusCode, client.json()]).toEqual([403, { message: FORBIDDEN_MESSAGE }]);

    // The demo HQ user, taken out of every Operations project: right role, wrong projects.
    const hq = await database.db.selectFrom('users').select('id').where('email', '=', 'hq@cellwise.local').executeTakeFirstOrThrow();
    const token = await tokenFor('hq@cellwise.local');
    expect((await call('/api/test/track', token)).statusCode).toBe(200);
    const operations = database.db.selectFrom('projects').select('id').where('name', '=', 'Operations');
    await database.db.deleteFrom('user_projects').where('user_id', '=', hq.id).where('project_id', 'in', operations).execute();
    const denied = await call('/api/test/track', token);
    expect([denied.statusCode, denied.json()]).toEqual([403, { message: FORBIDDEN_MESSAGE }]);
  });

  test('the token may come as access_token in the query only where a route says so (hub, downloads); the scheme is case-insensitive', async () => {
    const token = await tokenFor('manager@cellwise.local');
    expect((await app.inject({ url: `/api/test/manage?access_token=${token}` })).statusCode).toBe(401);
    const link = await app.inject({ url: `/api/test/link?access_token=${token}` });
    // Taken by the access hook, then gone: the handler never sees it.
    expect([link.statusCode, link.json()]).toEqual([200, { query: {} }]);
    expect((await app.inject({ url: '/api/test/manage', headers: { authorization: `bearer ${token}` } })).statusCode).toBe(200);
  });

  test('public routes answer with or without a (good or bad) token; health stays public', async () => {
    expect((await call('/api/test/open')).json()).toEqual({ signedIn: false });
    expect((await call('/api/test/open', 'garbage')).json()).toEqual({ signedIn: false });
    expect((await call('/api/test/open', await tokenFor('client@cellwise.local'))).json()).toEqual({ signedIn: true });
    expect((await call('/api/health')).statusCode).toBe(200);
    expect((await call('/API/HEALTH', 'garbage')).statusCode).toBe(200);
  });

  test('role and projects are read afresh: a change applies to tokens already handed out', async () => {
    const email = 'promoted@example.pt';
    const os = await database.db.selectFrom('roles').select('id').where('name', '=', 'CellwiseOS').executeTakeFirstOrThrow();
    const manager = await database.db.selectFrom('roles').select('id').where('name', '=', 'Manager').executeTakeFirstOrThrow();
    const hash = await database.db.selectFrom('users').select('password_hash').where('email', '=', 'os@cellwise.local').executeTakeFirstOrThrow();
    const { id } = await database.db
      .insertInto('users')
      .values({
        firstname: 'P',
        lastname: 'Q',
        email,
        password_hash: hash.password_hash,
        role_id: os.id,
        operator_id: null,
        email_confirmed: 1,
        deactivated_at: null,
        avatar: null,
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const token = await tokenFor(email);
    expect((await call('/api/test/manage', token)).statusCode).toBe(403);
    await database.db.updateTable('users').set({ role_id: manager.id }).where('id', '=', id).execute();
    expect((await call('/api/test/manage', token)).statusCode).toBe(200);
  });

  test('unknown API paths are still 404, not 401', async () => {
    expect((await call('/api/NoSuchThing')).statusCode).toBe(404);
  });
});

describe('every API route declares its access', () => {
  const build = async () => {
    const config = testConfig();
    const kind = TEST_DATABASES[0]!;
    const database = await kind.open();
    const app = await buildApp({ config, db: database.db, dialect: database.dialect }, { logger: false });
    return { app, database };
  };

  test('a route without access stops the start', async () => {
    const { app, database } = await build();
    try {
      const start = async () => {
        await app.register(
          async (scope) => {
            scope.post('/Forgotten', async () => ({ ok: true }));
          },
          { prefix: '/API' },
        );
        await app.ready();
      };
      await expect(start()).rejects.toThrow('POST /API/Forgotten declares no access');
    } finally {
      await app.close().catch(() => undefined);
      await database.dispose();
    }
  });

  test('an access the policy does not know stops the start', async () => {
    const { app, database } = await build();
    try {
      expect(() => app.get('/api/typo', { config: { access: 'canMange' as Capability } }, async () => ({}))).toThrow('declares an unknown access "canMange"');
    } finally {
      await app.close();
      await database.dispose();
    }
  });

  test('routes outside /api need no access (console pages, files)', async () => {
    const { app, database } = await build();
    try {
      app.get('/apiary/page', async () => ({ ok: true }));
      await app.ready();
      expect((await app.inject({ url: '/apiary/page' })).json()).toEqual({ ok: true });
    } finally {
      await app.close();
      await database.dispose();
    }
  });
});
