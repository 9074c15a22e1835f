import type { FastifyInstance } from 'fastify';
import type { Config } from '../src/config';
import { seed } from '../src/seed';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';

/** Issue 44, fix 7: what the console's answers say about where a page may connect, caching, https and HEAD. */

const ADMIN = { email: 'admin@cellwise.local', password: 'Admin-Password-1' };

const directives = (policy: unknown) =>
  new Map(
    String(policy)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );

describe.each(TEST_DATABASES)('security headers on $name', (kind) => {
  let database: TestDatabase;
  /** As deployed on its own: plain http, no proxy, no HSTS_MAX_AGE. */
  let plain: FastifyInstance;
  /** Behind one proxy that terminates TLS, with HSTS_MAX_AGE. */
  let proxied: FastifyInstance;
  let config: Config;
  let token = '';

  beforeAll(async () => {
    database = await kind.open();
    ({ app: plain, config } = await testApp(database, {
      ADMIN_PASSWORD: ADMIN.password,
      REMOTE_MANAGEMENT_URL: 'https://cdn.example.pt/management/mf-manifest.json',
    }));
    ({ app: proxied } = await testApp(database, { ADMIN_PASSWORD: ADMIN.password, TRUST_PROXY: '1', HSTS_MAX_AGE: '31536000' }));
    await seed(database.db, config);
    const login = await plain.inject({ method: 'POST', url: '/api/auth/login', payload: ADMIN });
    token = login.json<{ token: string }>().token;
  });
  afterAll(async () => {
    await plain.close();
    await proxied.close();
    await database.dispose();
  });

  test("a console page may open connections to its own origin and the remotes' only, never a WebSocket to any host", async () => {
    const page = await plain.inject({ url: '/home', headers: { host: 'Console.Example.pt:8080' } });
    expect(directives(page.headers['content-security-policy']).get('connect-src')).toEqual([
      "'self'",
      'ws://console.example.pt:8080',
      'https://cdn.example.pt',
    ]);
    const signedOut = await plain.inject({ url: '/auth/login', headers: { host: 'console.example.pt' } });
    expect(directives(signedOut.headers['content-security-policy']).get('connect-src')).toEqual([
      "'self'",
      'ws://console.example.pt',
      'https://cdn.example.pt',
    ]);
    // Behind the TLS proxy the page is https, so its socket is wss.
    const secure = await proxied.inject({ url: '/tracking/tracker', headers: { host: 'console.example.pt', 'x-forwarded-proto': 'https' } });
    expect(directives(secure.headers['content-security-policy']).get('connect-src')).toEqual(["'self'", 'wss://console.example.pt']);
    // A Host that is not a host name is not written into the policy.
    for (const host of ['evil.example.pt; script-src *', 'a b', '[::1]:8080', 'x'.repeat(300)]) {
      const odd = await plain.inject({ url: '/home', headers: { host } });
      expect(directives(odd.headers['content-security-policy']).get('connect-src')).toEqual(["'self'", 'https://cdn.example.pt']);
      expect(directives(odd.headers['content-security-policy']).get('script-src')).toEqual(["'self'", 'https://cdn.example.pt']);
    }
  });

  test('API answers carrying personal data are never stored by a cache; answers that choose their caching keep it', async () => {
    const as = { authorization: `Bearer ${token}` };
    for (const [method, url] of [
      ['POST', '/api/account/GetUserInfo'],
      ['GET', '/api/Users/GetUsers'],
      ['GET', '/api/Notification/Notifications'],
      ['GET', '/api/health'],
    ] as const) {
      const res = await plain.inject({ method, url, headers: as });
      expect([url, res.statusCode, res.headers['cache-control']]).toEqual([url, 200, 'no-store']);
    }
    // Refusals too: a 401 says nothing worth keeping either.
    expect((await plain.inject({ method: 'POST', url: '/api/account/GetUserInfo' })).headers['cache-control']).toBe('no-store');
    expect((await plain.inject({ url: '/config/remotes.json' })).headers['cache-control']).toBe('no-cache');
    expect((await plain.inject({ url: '/home' })).headers['cache-control']).toBe('no-cache');
  });

  test('HSTS_MAX_AGE sends Strict-Transport-Security on answers over https only; the device cookie is Secure there', async () => {
    const overHttps = { host: 'console.example.pt', 'x-forwarded-proto': 'https' };
    for (const url of ['/home', '/api/health', '/auth/login']) {
      expect((await proxied.inject({ url, headers: overHttps })).headers['strict-transport-security']).toBe('max-age=31536000');
      expect((await proxied.inject({ url, headers: { host: 'console.example.pt' } })).headers['strict-transport-security']).toBeUndefined();
    }
    // Without HSTS_MAX_AGE none is sent, and without TRUST_PROXY a client's X-Forwarded-Proto is not believed.
    expect((await plain.inject({ url: '/home', headers: overHttps })).headers['strict-transport-security']).toBeUndefined();

    const secureLogin = await proxied.inject({ method: 'POST', url: '/api/auth/login', payload: ADMIN, headers: overHttps });
    expect(String(secureLogin.headers['set-cookie']).split('; ')).toContain('Secure');
    const plainLogin = await proxied.inject({ method: 'POST', url: '/api/auth/login', payload: ADMIN });
    expect(String(plainLogin.headers['set-cookie']).split('; ')).not.toContain('Secure');
  });

  test('HEAD of a console page answers like its GET, without the body (uptime checks)', async () => {
    for (const url of ['/home', '/', '/tracking/commissioningplan', '/auth/login', '/management/users?tab=x']) {
      const [get, head] = [await plain.inject({ method: 'GET', url }), await plain.inject({ method: 'HEAD', url })];
      expect([url, head.statusCode, head.body]).toEqual([url, 200, '']);
      for (const name of ['content-type', 'content-security-policy', 'cache-control', 'content-length'])
        expect([url, name, head.headers[name]]).toEqual([url, name, get.headers[name]]);
    }
    const missing = await plain.inject({ method: 'HEAD', url: '/api/NoSuchThing' });
    expect([missing.statusCode, missing.body]).toEqual([404, '']);
  });
});
