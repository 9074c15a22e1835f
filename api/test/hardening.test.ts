import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../src/auth/passwords';
import { ConfigError, loadConfig, type Config } from '../src/config';
import { MALFORMED_MULTIPART_MESSAGE } from '../src/http/errors';
import { loggableUrl } from '../src/http/redact';
import { USER_MESSAGES } from '../src/routes/users';
import { seed } from '../src/seed';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';

/** Regressions of what a security probe found in the shipped console (issue 11), one test each. */

const ADMIN = { email: 'admin@cellwise.local', password: 'Admin-Password-1' };
const PASSWORD = 'Cellwise-Demo-1';

test('log lines never carry a token from the query string, however its name is spelled', () => {
  expect(loggableUrl('/api/notificationhub?id=1&access_token=eyJ.secret.sig')).toBe('/api/notificationhub?id=1&access_token=[Redacted]');
  expect(loggableUrl('/api/File/Download?file=a&%61ccess_token=eyJ.secret.sig')).toBe('/api/File/Download?file=a&%61ccess_token=[Redacted]');
  expect(loggableUrl('/api/x?ACCESS%5FTOKEN=eyJ.secret.sig#top')).toBe('/api/x?ACCESS%5FTOKEN=[Redacted]#top');
  expect(loggableUrl('/api/x?access+token=keep&access_token')).toBe('/api/x?access+token=keep&access_token=[Redacted]');
  // The one-time token of a mailed link: the page it opens is served, and logged, here too.
  expect(loggableUrl('/auth/recoverconfirmation?token=one-time-secret&user=4')).toBe('/auth/recoverconfirmation?token=[Redacted]&user=4');
  expect(loggableUrl('/api/x?%E0%A4%A=1')).toBe('/api/x?%E0%A4%A=1');
  expect(loggableUrl('/home')).toBe('/home');
});

test('every spelling of access_token is redacted: arrays, encoded brackets, repeated, encoded twice, after a semicolon (issue 44)', () => {
  const secret = 'eyJ.secret.sig';
  for (const [url, expected] of [
    [`/api/File/Download?file=x&access_token[]=${secret}`, '/api/File/Download?file=x&access_token[]=[Redacted]'],
    [`/api/File/Download?file=x&access_token%5B%5D=${secret}`, '/api/File/Download?file=x&access_token%5B%5D=[Redacted]'],
    [`/api/File/Download?access_token[0]=${secret}&Access_Token[1]=${secret}`, '/api/File/Download?access_token[0]=[Redacted]&Access_Token[1]=[Redacted]'],
    [
      `/api/x?access_token=${secret}&access_token=${secret}&AcCeSs_ToKeN=${secret}`,
      '/api/x?access_token=[Redacted]&access_token=[Redacted]&AcCeSs_ToKeN=[Redacted]',
    ],
    [`/api/x?%2561ccess_token=${secret}`, '/api/x?%2561ccess_token=[Redacted]'],
    [`/api/x?%61ccess%5Ftoken%5b%5d=${secret}`, '/api/x?%61ccess%5Ftoken%5b%5d=[Redacted]'],
    [`/api/x?file=a;access_token=${secret}`, '/api/x?file=a;access_token=[Redacted]'],
    [`/api/x?+access_token+=${secret}`, '/api/x?+access_token+=[Redacted]'],
  ] as const) {
    expect(loggableUrl(url)).toBe(expected);
  }
  // Names that only look alike keep their values.
  expect(loggableUrl('/api/x?access_tokens=1&my_access_token=2&file=a;b')).toBe('/api/x?access_tokens=1&my_access_token=2&file=a;b');
});

test('real mail needs PUBLIC_URL; a proxy is trusted only when named', () => {
  expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example.pt' })).toThrow(ConfigError);
  expect(loadConfig({ SMTP_URL: 'smtp://mail.example.pt', PUBLIC_URL: 'https://cellwise.example.pt/' }).publicUrl).toBe('https://cellwise.example.pt');
  expect(loadConfig({}).trustProxy).toBe(false);
  expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
  expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.0.2' }).trustProxy).toBe('10.0.0.1, 10.0.0.2');
  expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(ConfigError);
  expect(() => loadConfig({ SITE_RULE: '^(?<nosite>\\d+)' })).toThrow(/SITE_RULE/);
  expect(loadConfig({ SITE_RULE: '^[A-Z]+_(?<site>\\d+)' }).siteRule).toBe('^[A-Z]+_(?<site>\\d+)');
});

describe.each(TEST_DATABASES)('hardening on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let config: Config;
  const tokens = new Map<string, string>();

  const as = (email: string) => ({ authorization: `Bearer ${tokens.get(email) ?? ''}` });
  async function signIn(email: string, password = PASSWORD): Promise<string> {
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    expect(res.statusCode).toBe(200);
    const token = res.json<{ token: string }>().token;
    tokens.set(email, token);
    return token;
  }
  async function idOf(table: 'roles' | 'operators', name: string): Promise<number> {
    return (await database.db.selectFrom(table).select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  }

  /** A confirmed user made through the API, who can sign in with PASSWORD. */
  async function createUser(email: string, role: string, operators: string[]): Promise<number> {
    const operatorIds = await Promise.all(operators.map((name) => idOf('operators', name)));
    const res = await app.inject({
      method: 'POST',
      url: '/api/Users/CreateUser',
      headers: as(ADMIN.email),
      payload: { firstname: 'Test', lastname: role, email, roleId: await idOf('roles', role), operatorIds, projectIds: [] },
    });
    expect(res.statusCode).toBe(200);
    const id = res.json<{ id: number }>().id;
    await database.db
      .updateTable('users')
      .set({ email_confirmed: 1, password_hash: await hashPassword(PASSWORD) })
      .where('id', '=', id)
      .execute();
    return id;
  }

  beforeAll(async () => {
    database = await kind.open();
    ({ app, config } = await testApp(database, { ADMIN_PASSWORD: ADMIN.password }));
    await seed(database.db, config);
    await signIn(ADMIN.email, ADMIN.password);
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  describe('a Manager grants rights only within their own operators (defect 2)', () => {
    let shared: number;
    let meoOnly: number;
    beforeAll(async () => {
      await createUser('meo.manager@example.pt', 'Manager', ['MEO']);
      shared = await createUser('shared.os@example.pt', 'CellwiseOS', ['MEO', 'Vodafone PT']);
      meoOnly = await createUser('meo.os@example.pt', 'CellwiseOS', ['MEO']);
      await signIn('meo.manager@example.pt');
    });
    const edit = (id: number, role: string, who = 'meo.manager@example.pt') =>
      (async () =>
        app.inject({
          method: 'POST',
          url: '/api/Users/EditUser',
          headers: as(who),
          payload: {
            id,
            firstname: 'Test',
            lastname: 'Edited',
            roleId: await idOf('roles', role),
            operatorIds: [await idOf('operators', 'MEO')],
            projectIds: [],
          },
        }))();

    test('the role of a user who also works for another operator is not the MEO Manager’s to change', async () => {
      const res = await edit(shared, 'Manager');
      expect([res.statusCode, res.json()]).toEqual([403, { message: USER_MESSAGES.foreignRole }]);
      const role = await database.db
        .selectFrom('users')
        .innerJoin('roles', 'roles.id', 'users.role_id')
        .select('roles.name')
        .where('users.id', '=', shared)
        .executeTakeFirstOrThrow();
      expect(role.name).toBe('CellwiseOS');
    });

    test('what stays within MEO is still theirs: the same user’s name, a MEO-only user’s role', async () => {
      expect((await edit(shared, 'CellwiseOS')).statusCode).toBe(200);
      const operators = await database.db.selectFrom('user_operators').select('operator_id').where('user_id', '=', shared).execute();
      expect(operators).toHaveLength(2);
      expect((await edit(meoOnly, 'CellwiseHQ')).statusCode).toBe(200);
    });

    test('an Administrator still changes any role', async () => {
      expect((await edit(shared, 'CellwiseHQ', ADMIN.email)).statusCode).toBe(200);
    });
  });

  describe('access_token in a query string (defect 6)', () => {
    test('ordinary API routes ignore it: 401', async () => {
      const token = tokens.get(ADMIN.email)!;
      const res = await app.inject({ method: 'GET', url: `/api/Users/GetUsersStats?access_token=${token}` });
      expect(res.statusCode).toBe(401);
      expect((await app.inject({ method: 'GET', url: '/api/Users/GetUsersStats', headers: as(ADMIN.email) })).statusCode).toBe(200);
    });

    test('downloads opened in a new tab and the hub take it', async () => {
      const token = tokens.get(ADMIN.email)!;
      const download = await app.inject({ method: 'GET', url: `/api/File/Download?file=no-such-export&access_token=${token}` });
      expect([download.statusCode, download.json()]).toEqual([404, { message: 'File not found.' }]);
      const negotiate = await app.inject({ method: 'POST', url: `/api/notificationhub/negotiate?negotiateVersion=1&access_token=${token}` });
      expect(negotiate.statusCode).toBe(200);
    });
  });

  describe('bad input is a 4xx with a message, never a 500 (defect 4)', () => {
    test.each(['/api/auth/completeRegistration', '/api/auth/recoverconfirmation'])('%s with "user": ["x"]', async (url) => {
      const res = await app.inject({
        method: 'POST',
        url,
        payload: { password: 'long-enough-pw', rpassword: 'long-enough-pw', token: 'abc', user: ['x'] },
        remoteAddress: '198.51.100.200',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(/^user/);
    });

    test('an audit-trail page beyond any table', async () => {
      const res = await app.inject({ method: 'GET', url: '/api/Users/GetAuditTrail?page=100000000000000000000', headers: as(ADMIN.email) });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(/^page/);
    });

    test.each([
      ['no boundary', 'multipart/form-data', 'abc'],
      ['a truncated body', 'multipart/form-data; boundary=XX', '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.xlsx"\r\n\r\nabc'],
    ])('File/Upload with %s', async (_what, contentType, payload) => {
      const res = await app.inject({ method: 'POST', url: '/api/File/Upload', headers: { ...as(ADMIN.email), 'content-type': contentType }, payload });
      expect([res.statusCode, res.json()]).toEqual([400, { message: MALFORMED_MULTIPART_MESSAGE }]);
    });

    test('an error answer never fails its route’s response schema (tracking imports)', async () => {
      for (const query of ['', '?filePath=', '?filePath=a&filePath=b', '?filePath=a&extra=1']) {
        const res = await app.inject({ method: 'GET', url: `/api/Tracker/CommissioningPlanUpload${query}`, headers: as(ADMIN.email) });
        expect(res.statusCode).toBe(400);
        expect(res.body).not.toContain('FST_');
        expect(typeof res.json<{ message: string }>().message).toBe('string');
      }
    });
  });

  describe('what the server serves to anyone (defect 8)', () => {
    test('/api/docs carries a Content-Security-Policy that allows only its own scripts', async () => {
      const res = await app.inject({ method: 'GET', url: '/api/docs' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-security-policy']).toMatch(/script-src 'self'/);
      expect(res.headers['content-security-policy']).toMatch(/object-src 'none'/);
    });

    test('source maps are not served, by the shell or a remote', async () => {
      fs.writeFileSync(path.join(config.webRoot, 'shell/dist/main.1a2b3c4d.js.map'), '{"sources":["secret.ts"]}');
      fs.writeFileSync(path.join(config.webRoot, 'mfe-tracking/dist/123.0a1b2c3d.js.map'), '{"sources":["secret.ts"]}');
      for (const url of ['/main.1a2b3c4d.js.map', '/remotes/mfe-tracking/123.0a1b2c3d.js.map']) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(404);
        expect(res.body).not.toContain('secret.ts');
      }
      expect((await app.inject({ method: 'GET', url: '/remotes/mfe-tracking/123.0a1b2c3d.js' })).statusCode).toBe(200);
    });
  });

  test('an operator a Manager creates is offered in their own user form (defect 9; the rest is in management.test.ts)', async () => {
    await signIn('manager@cellwise.local');
    const created = await app.inject({
      method: 'POST',
      url: '/api/Operators/CreateOperator',
      headers: as('manager@cellwise.local'),
      payload: { name: 'Fibra Nova' },
    });
    expect(created.statusCode).toBe(200);
    const offered = await app.inject({ method: 'GET', url: '/api/Users/GetOperators', headers: as('manager@cellwise.local') });
    expect(offered.json<Array<{ name: string }>>().map((o) => o.name)).toContain('Fibra Nova');
  });
});
