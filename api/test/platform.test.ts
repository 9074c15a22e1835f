import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { testApp } from './support/app';
import { RUNTIME_CONFIG_ELEMENT_ID, runtimeConfigElement } from '../src/web/frontends';

describe.each(TEST_DATABASES)('platform on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await kind.open();
    ({ app } = await testApp(database, { REMOTE_MANAGEMENT_URL: 'https://cdn.example.pt/management/mf-manifest.json' }));
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  test('migrations ran: the platform table exists', async () => {
    await sql`insert into app_meta (key, value) values ('probe', 'x')`.execute(database.db);
    const row = await database.db.selectFrom('app_meta').selectAll().where('key', '=', 'probe').executeTakeFirst();
    expect(row).toEqual({ key: 'probe', value: 'x' });
  });

  test('/api/health reports the database and the version; paths are case-insensitive', async () => {
    for (const url of ['/api/health', '/API/Health']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        status: 'ok',
        version: '0.1.0',
        database: { dialect: kind.name, reachable: true },
        backplane: { kind: 'in-process', reachable: true },
      });
      expect(res.headers['x-request-id']).toMatch(/^[\w-]+$/);
    }
  });

  test('the runtime config names four remotes; an environment override moves one elsewhere', async () => {
    const res = await app.inject({ url: '/config/remotes.json' });
    expect(res.headers['cache-control']).toBe('no-cache');
    const { remotes } = res.json<{ remotes: Array<{ id: string; name: string; entry: string }> }>();
    expect(remotes.map((r) => [r.id, r.name, r.entry])).toEqual([
      ['tracking', 'mfe_tracking', '/remotes/mfe-tracking/mf-manifest.json'],
      ['planning-validation', 'mfe_planning_validation', '/remotes/mfe-planning-validation/mf-manifest.json'],
      ['monitoring', 'mfe_monitoring', '/remotes/mfe-monitoring/mf-manifest.json'],
      ['management', 'mfe_management', 'https://cdn.example.pt/management/mf-manifest.json'],
    ]);
  });

  test('the console page carries the runtime config, as /config/remotes.json answers it; the signed-out pages do not', async () => {
    const page = await app.inject({ url: '/tracking/commissioningplan' });
    const carried = new RegExp(`<script type="application/json" id="${RUNTIME_CONFIG_ELEMENT_ID}">(.*?)</script>`).exec(page.body);
    expect(carried).not.toBeNull();
    expect(JSON.parse(carried![1]!)).toEqual((await app.inject({ url: '/config/remotes.json' })).json());
    expect(page.body.indexOf(carried![0])).toBeLessThan(page.body.indexOf('</head>'));
    expect((await app.inject({ url: '/auth/login' })).body).not.toContain(RUNTIME_CONFIG_ELEMENT_ID);
  });

  test('remote manifests and entries are never cached; hashed chunks are immutable', async () => {
    const manifest = await app.inject({ url: '/remotes/mfe-tracking/mf-manifest.json' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect((await app.inject({ url: '/remotes/mfe-tracking/remoteEntry.js' })).headers['cache-control']).toBe('no-cache');
    const chunk = await app.inject({ url: '/remotes/mfe-monitoring/123.0a1b2c3d.js' });
    expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await app.inject({ url: '/remotes/mfe-tracking/missing.js' })).statusCode).toBe(404);
  });

  test('client routes fall back to the shell page, with a CSP that admits the remote origins', async () => {
    const res = await app.inject({ url: '/tracking/commissioningplan' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('<div id="root">');
    expect(res.headers['content-security-policy']).toContain("script-src 'self' https://cdn.example.pt");
    expect((await app.inject({ url: '/' })).body).toContain('<div id="root">');
  });

  test('the signed-out pages answer their own entry (auth.html) with the same headers; every other page the console', async () => {
    const consolePage = await app.inject({ url: '/home' });
    for (const url of ['/auth/login', '/auth/recover', '/auth/resetpassword', '/auth/completeregistration?token=t&user=1', '/AUTH/Login/', '/auth']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('data-entry="signed-out"');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toBe(consolePage.headers['content-security-policy']);
    }
    for (const url of ['/home', '/authors', '/errors/error-404', '/', '/management/users']) {
      const res = await app.inject({ url });
      expect(res.body).toContain('<div id="root">');
      expect(res.body).not.toContain('signed-out');
    }
    expect((await app.inject({ url: '/signin.5e6f7a8b.css' })).headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  test('unknown API paths answer 404 JSON, not the shell', async () => {
    const res = await app.inject({ url: '/api/NoSuchThing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found: GET /api/NoSuchThing' });
  });

  test('OpenAPI is generated from the route schemas', async () => {
    expect((await app.inject({ url: '/api/docs' })).statusCode).toBeLessThan(400);
    const spec = (await app.inject({ url: '/api/docs/json' })).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(spec.paths)).toContain('/api/health');
  });
});

test('a value in the runtime config cannot close its element early', () => {
  const element = runtimeConfigElement({
    remotes: [{ id: 'tracking', name: 'x</script><script>alert(1)</script>', entry: '/e', prefixes: [], groups: [] }],
  });
  expect(element.match(/<\/script>/g)).toHaveLength(1);
  const json = /^<script[^>]*>(.*)<\/script>$/.exec(element)![1]!;
  expect((JSON.parse(json) as { remotes: Array<{ name: string }> }).remotes[0]!.name).toBe('x</script><script>alert(1)</script>');
});
