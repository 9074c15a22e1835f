import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import type { Role } from 'shared-auth/policy';
import { buildApp } from '../src/app';
import { EXPIRED_MESSAGE, UNAUTHENTICATED_MESSAGE } from '../src/auth/access';
import { DEVICE_COOKIE } from '../src/auth/device-cookies';
import { accountEvents } from '../src/auth/events';
import { loadJwtSecret, signSessionToken } from '../src/auth/jwt';
import { issueOneTimeToken } from '../src/auth/one-time-tokens';
import { PASSWORD_MESSAGES } from '../src/auth/password-rules';
import { hashPassword } from '../src/auth/passwords';
import type { Config } from '../src/config';
import type { UserInfo } from 'contracts';
import { readOutbox } from '../src/mail';
import { DEMO_PASSWORD, seed } from '../src/seed';
import { testApp } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';

const ADMIN = { email: 'admin@cellwise.local', password: 'Admin-Password-1' };
const START = Date.parse('2026-03-02T21:00:00.000Z');
const MINUTE = 60_000;

const M = {
  invalid: 'Invalid email or password.',
  unconfirmed: 'Please confirm your email address first: follow the link in the confirmation email.',
  deactivated: 'This account has been deactivated. Contact your administrator.',
  recover: 'If the address belongs to an account, a recovery email is on its way.',
  differ: 'Passwords do not match.',
  badLink: 'This link is invalid or has expired. Ask for a new one.',
  oldWrong: 'The old password is not correct.',
  forbidden: 'You are not allowed to do this.',
  short: 'The password must have at least 10 characters.',
  isEmail: 'The password must not be your email address.',
};

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** A bad request must be a 4xx with a message, never a server fault. */
function expectClientError(res: LightMyRequestResponse, status = 400): void {
  expect([res.statusCode, typeof res.json<{ message?: unknown }>().message]).toEqual([status, 'string']);
  expect(res.json<{ message: string }>().message.length).toBeGreaterThan(0);
}

describe.each(TEST_DATABASES)('accounts and authentication on $name', (kind) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let config: Config;
  let now = START;
  const ids = new Map<string, number>();

  const post = (url: string, payload?: unknown, token?: string) =>
    app.inject({
      method: 'POST',
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  const get = (url: string, token?: string) => app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const login = (email: string, password: string) => post('/api/auth/login', { email, password });
  async function tokenFor(email: string, password = DEMO_PASSWORD): Promise<string> {
    const res = await login(email, password);
    expect(res.statusCode).toBe(200);
    return res.json<{ token: string }>().token;
  }
  const userInfo = async (token: string) => post('/api/account/GetUserInfo', undefined, token);

  async function addUser(options: { email: string; password?: string | null; role?: Role; confirmed?: boolean; operators?: string[] }): Promise<number> {
    const role = await database.db
      .selectFrom('roles')
      .select('id')
      .where('name', '=', options.role ?? 'CellwiseOS')
      .executeTakeFirstOrThrow();
    const found = await database.db
      .selectFrom('operators')
      .select(['id', 'name'])
      .where('name', 'in', options.operators?.length ? options.operators : ['-'])
      .execute();
    // The first operator named is the current one.
    const operators = (options.operators ?? []).map((name) => found.find((o) => o.name === name)!);
    const { id } = await database.db
      .insertInto('users')
      .values({
        firstname: 'Test',
        lastname: 'User',
        email: options.email,
        password_hash: options.password === null ? null : await hashPassword(options.password ?? DEMO_PASSWORD),
        role_id: role.id,
        operator_id: operators[0]?.id ?? null,
        email_confirmed: options.confirmed === false ? 0 : 1,
        deactivated_at: null,
        avatar: null,
        created_at: new Date(now).toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (operators.length > 0) {
      await database.db
        .insertInto('user_operators')
        .values(operators.map((o) => ({ user_id: id, operator_id: o.id })))
        .execute();
    }
    ids.set(options.email, id);
    return id;
  }

  /** The link in the newest mail to this address, as the user would click it. */
  async function mailedLink(to: string, page: string): Promise<URL> {
    await app.mailer.idle();
    const mail = readOutbox(config.dataDir)
      .filter((m) => m.to === to)
      .at(-1);
    expect(mail).toBeDefined();
    const pattern = new RegExp(`https?://[^\\s"<]+/auth/${page}\\?token=[A-Za-z0-9_-]+&user=\\d+`);
    const inText = pattern.exec(mail?.text ?? '')?.[0];
    const inHtml = pattern.exec((mail?.html ?? '').replace(/&amp;/g, '&'))?.[0];
    expect(inText).toBeDefined();
    expect(inHtml).toBe(inText);
    return new URL(inText ?? '');
  }

  beforeAll(async () => {
    database = await kind.open();
    ({ app, config } = await testApp(database, { ADMIN_PASSWORD: ADMIN.password, PUBLIC_URL: 'https://console.example.pt/' }, { clock: () => now }));
    await seed(database.db, config);
    for (const row of await database.db.selectFrom('users').select(['id', 'email']).execute()) ids.set(row.email, row.id);
  });
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });
  beforeEach(() => {
    now += 60 * MINUTE;
  });

  describe('auth/login', () => {
    test('answers a session token whose claims describe the user; exp is in seconds, 8 h after iat', async () => {
      const res = await login(ADMIN.email, ADMIN.password);
      expect(res.statusCode).toBe(200);
      const { token } = res.json<{ token: string }>();
      const vodafone = await database.db.selectFrom('operators').select('id').where('name', '=', 'Vodafone PT').executeTakeFirstOrThrow();
      expect(claimsOf(token)).toEqual({
        sub: String(ids.get(ADMIN.email)),
        role: 'Administrator',
        operatorId: vodafone.id,
        projects: ['Operations'],
        iat: Math.floor(now / 1000),
        exp: Math.floor(now / 1000) + 8 * 3600,
      });
    });

    test('e-mail addresses match whatever their case', async () => {
      expect((await login('ADMIN@Cellwise.LOCAL', ADMIN.password)).statusCode).toBe(200);
    });

    test('a wrong password and an unknown e-mail get the very same answer', async () => {
      await addUser({ email: 'wrong@example.pt' });
      const wrong = await login('wrong@example.pt', 'not-the-password');
      const unknown = await login('nobody-here@example.pt', 'not-the-password');
      for (const res of [wrong, unknown]) {
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ message: M.invalid });
      }
    });

    test('a user who never chose a password cannot sign in', async () => {
      await addUser({ email: 'invited@example.pt', password: null, confirmed: false });
      expect((await login('invited@example.pt', '')).statusCode).toBe(400);
      expect((await login('invited@example.pt', 'anything-at-all')).json()).toEqual({ message: M.invalid });
    });

    test('an unconfirmed or deactivated account is told why, but only with the right password', async () => {
      await addUser({ email: 'unconfirmed@example.pt', confirmed: false });
      expect((await login('unconfirmed@example.pt', 'wrong-password')).json()).toEqual({ message: M.invalid });
      const unconfirmed = await login('unconfirmed@example.pt', DEMO_PASSWORD);
      expect([unconfirmed.statusCode, unconfirmed.json()]).toEqual([403, { message: M.unconfirmed }]);

      const id = await addUser({ email: 'gone@example.pt' });
      await database.db
        .updateTable('users')
        .set({ deactivated_at: new Date(now).toISOString() })
        .where('id', '=', id)
        .execute();
      const deactivated = await login('gone@example.pt', DEMO_PASSWORD);
      expect([deactivated.statusCode, deactivated.json()]).toEqual([403, { message: M.deactivated }]);
    });

    const loginFrom = (address: string, email: string, password: string) =>
      app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: address });

    test('five wrong passwords from one address block that address for that account (429, Retry-After), not the account', async () => {
      await addUser({ email: 'lock@example.pt' });
      now = Date.parse('2026-03-03T20:59:10.000Z');
      for (let i = 0; i < 5; i++) expect((await loginFrom('203.0.113.5', 'lock@example.pt', `wrong-${i}-password`)).json()).toEqual({ message: M.invalid });
      now += 60_000; // past the account's growing delay, which is not what is tested here
      const blocked = await loginFrom('203.0.113.5', 'lock@example.pt', DEMO_PASSWORD);
      expect([blocked.statusCode, blocked.json(), blocked.headers['retry-after']]).toEqual([
        429,
        { message: 'Too many attempts. Try again in 14 minutes.' },
        String(14 * 60),
      ]);
      // The owner, at another address, signs in: nobody can lock a colleague out by typing their email.
      expect((await loginFrom('198.51.100.7', 'lock@example.pt', DEMO_PASSWORD)).statusCode).toBe(200);
      now += 14 * MINUTE;
      expect((await loginFrom('203.0.113.5', 'lock@example.pt', DEMO_PASSWORD)).statusCode).toBe(200);
    });

    test('failures from many addresses only delay the account, by at most 30 s', async () => {
      await addUser({ email: 'spread@example.pt' });
      now = Date.parse('2026-03-03T22:00:00.000Z');
      for (let i = 0; i < 5; i++) expect((await loginFrom(`192.0.2.${i + 1}`, 'spread@example.pt', 'wrong-password')).statusCode).toBe(400);
      const delayed = await loginFrom('198.51.100.8', 'spread@example.pt', DEMO_PASSWORD);
      expect([delayed.statusCode, delayed.headers['retry-after']]).toEqual([429, '1']);
      for (let i = 5; i < 20; i++) {
        now += 31_000;
        expect((await loginFrom(`192.0.2.${i + 1}`, 'spread@example.pt', 'wrong-password')).statusCode).toBe(400);
      }
      now += 30_000;
      expect((await loginFrom('198.51.100.8', 'spread@example.pt', DEMO_PASSWORD)).statusCode).toBe(200);
    });

    describe('a browser that signed in before (device cookie, issue 44)', () => {
      let origin = '';
      beforeAll(async () => {
        await app.listen({ host: '127.0.0.1', port: 0 });
        origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      });

      /** A sign-in over a real connection from a loopback address of its own, as a browser sends it. */
      function signInOver(localAddress: string, email: string, password: string, cookie?: string) {
        return new Promise<{ status: number; setCookie: string | null; retryAfter: string | null }>((resolve, reject) => {
          const body = JSON.stringify({ email, password });
          const request = http.request(
            `${origin}/api/auth/login`,
            {
              method: 'POST',
              localAddress,
              headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(cookie ? { cookie } : {}) },
            },
            (response) => {
              response.resume();
              response.on('end', () =>
                resolve({
                  status: response.statusCode ?? 0,
                  setCookie: response.headers['set-cookie']?.[0] ?? null,
                  retryAfter: (response.headers['retry-after'] as string | undefined) ?? null,
                }),
              );
            },
          );
          request.on('error', reject);
          request.end(body);
        });
      }
      /** What the browser sends back of a Set-Cookie: its name and value. */
      const cookieOf = (setCookie: string | null) => (setCookie ?? '').split(';')[0]!;

      test('wrong passwords sent from other addresses never keep the owner out of the browser they signed in with', async () => {
        await addUser({ email: 'target@example.pt' });
        const first = await signInOver('127.0.0.1', 'target@example.pt', DEMO_PASSWORD);
        expect(first.status).toBe(200);
        const attributes = (first.setCookie ?? '').split('; ');
        expect(attributes[0]).toMatch(new RegExp(`^${DEVICE_COOKIE.namePrefix}[A-Za-z0-9_-]{16}=[A-Za-z0-9_-]{22}\\.\\d+\\.[A-Za-z0-9_-]+$`));
        expect(attributes.slice(1).sort()).toEqual(['HttpOnly', 'Max-Age=31536000', 'Path=/api/auth/login', 'SameSite=Strict']);
        let cookie = cookieOf(first.setCookie);

        // One wrong password every 31 s from six rotating addresses keeps the account under its growing delay.
        for (let i = 0; i < 12; i++) {
          now += 31_000;
          expect((await signInOver(`127.0.0.${10 + (i % 6)}`, 'target@example.pt', `wrong-${i}-password`)).status).toBe(400);
          if (i < 5) continue;
          // A browser without the cookie (another one, on the owner's own address) waits out the delay...
          const stranger = await signInOver('127.0.0.1', 'target@example.pt', DEMO_PASSWORD);
          expect([stranger.status, Number(stranger.retryAfter)]).toEqual([429, expect.any(Number)]);
          expect(Number(stranger.retryAfter)).toBeGreaterThan(0);
          // ...while the owner's browser signs in at once, every time, and gets a fresh cookie.
          const owner = await signInOver('127.0.0.1', 'target@example.pt', DEMO_PASSWORD, cookie);
          expect(owner.status).toBe(200);
          expect(cookieOf(owner.setCookie)).not.toBe(cookie);
          cookie = cookieOf(owner.setCookie);
        }
      });

      test("a device cookie's own failures lock out that cookie only; a copied, forged or other account's cookie is no cookie", async () => {
        await addUser({ email: 'device@example.pt' });
        await addUser({ email: 'neighbour@example.pt' });
        const cookie = cookieOf((await signInOver('127.0.0.1', 'device@example.pt', DEMO_PASSWORD)).setCookie);
        const neighbours = cookieOf((await signInOver('127.0.0.1', 'neighbour@example.pt', DEMO_PASSWORD)).setCookie);

        for (let i = 0; i < 5; i++) expect((await signInOver('127.0.0.20', 'device@example.pt', `wrong-${i}-password`, cookie)).status).toBe(400);
        const locked = await signInOver('127.0.0.20', 'device@example.pt', DEMO_PASSWORD, cookie);
        expect([locked.status, locked.retryAfter]).toEqual([429, String(15 * 60)]);
        // Those failures were the cookie's: the account has no delay, and that same address without the cookie signs in.
        expect((await signInOver('127.0.0.20', 'device@example.pt', DEMO_PASSWORD)).status).toBe(200);

        // Untrusted failures for the neighbour put its account under a delay; cookies that are not its own do not help.
        for (let i = 0; i < 5; i++) expect((await signInOver(`127.0.0.${30 + i}`, 'neighbour@example.pt', 'wrong-password')).status).toBe(400);
        const [name, value] = neighbours.split('=') as [string, string];
        const forged = `${name}=${value.slice(0, -2)}${value.endsWith('AA') ? 'BB' : 'AA'}`;
        const otherAccounts = `${name}=${cookie.split('=')[1]}`;
        for (const given of [forged, otherAccounts, cookie, `${name}=`, `${name}=a.b.c.d`]) {
          expect((await signInOver('127.0.0.1', 'neighbour@example.pt', DEMO_PASSWORD, given)).status).toBe(429);
        }
        expect((await signInOver('127.0.0.1', 'neighbour@example.pt', DEMO_PASSWORD, `theme=dark; ${neighbours}`)).status).toBe(200);
      });

      test('a device cookie is trusted for a year after it was issued', async () => {
        await addUser({ email: 'yearly@example.pt' });
        const started = now;
        const cookie = cookieOf((await signInOver('127.0.0.1', 'yearly@example.pt', DEMO_PASSWORD)).setCookie);
        now += DEVICE_COOKIE.maxAgeSeconds * 1000 - MINUTE;
        for (let i = 0; i < 5; i++) expect((await signInOver(`127.0.0.${40 + i}`, 'yearly@example.pt', 'wrong-password')).status).toBe(400);
        expect((await signInOver('127.0.0.1', 'yearly@example.pt', DEMO_PASSWORD, cookie)).status).toBe(200);
        // Past its year; one more failure from elsewhere renews the account's delay.
        now += 2 * MINUTE;
        expect((await signInOver('127.0.0.50', 'yearly@example.pt', 'wrong-password')).status).toBe(400);
        expect((await signInOver('127.0.0.1', 'yearly@example.pt', DEMO_PASSWORD, cookie)).status).toBe(429);
        // The tests after this one keep their own dates in 2026.
        now = started;
      });
    });

    test('a success resets the count', async () => {
      await addUser({ email: 'reset@example.pt' });
      for (let i = 0; i < 4; i++) await login('reset@example.pt', 'wrong-password');
      expect((await login('reset@example.pt', DEMO_PASSWORD)).statusCode).toBe(200);
      for (let i = 0; i < 4; i++) expect((await login('reset@example.pt', 'wrong-password')).statusCode).toBe(400);
    });

    test('unknown e-mails are limited the same way (a limit reveals no account)', async () => {
      const answers = [];
      now = Date.parse('2026-03-04T10:00:00.000Z');
      for (let i = 0; i < 6; i++) {
        answers.push((await loginFrom('203.0.113.9', 'ghost@example.pt', 'wrong-password')).statusCode);
        now += 31_000;
      }
      expect(answers).toEqual([400, 400, 400, 400, 400, 429]);
    });

    test('one address trying many accounts is refused after 30 failures (429)', async () => {
      now = Date.parse('2026-03-04T12:00:00.000Z');
      const answers = [];
      for (let i = 0; i < 32; i++) answers.push((await loginFrom('203.0.113.77', `sprayed-${i}@example.pt`, 'Winter-2026!')).statusCode);
      expect(answers.slice(0, 30).every((status) => status === 400)).toBe(true);
      expect(answers.slice(30)).toEqual([429, 429]);
      // Another address is not affected.
      expect((await loginFrom('203.0.113.78', 'sprayed-0@example.pt', 'Winter-2026!')).statusCode).toBe(400);
    });

    test.each([
      ['no body', undefined],
      ['empty object', {}],
      ['missing password', { email: 'a@example.pt' }],
      ['missing email', { password: 'something-long' }],
      ['email is not an address', { email: 'not-an-email', password: 'x' }],
      ['email is an object', { email: { $ne: '' }, password: 'x' }],
      ['password is an object', { email: 'a@example.pt', password: { $gt: '' } }],
      ['password is null', { email: 'a@example.pt', password: null }],
      ['SQL in the email', { email: "' OR 1=1 --", password: 'x' }],
      ['SQL in the password', { email: 'sql@example.pt', password: "' OR '1'='1' --" }],
      ['over-long email', { email: `${'a'.repeat(250)}@example.pt`, password: 'x' }],
      ['over-long password', { email: 'a@example.pt', password: 'p'.repeat(257) }],
      ['unknown field', { email: 'a@example.pt', password: 'something', admin: true }],
      ['an array', [{ email: 'a@example.pt', password: 'x' }]],
    ])('bad input (%s) is a 400 with a message', async (_name, payload) => {
      expectClientError(await post('/api/auth/login', payload));
    });

    test('a body that is not JSON is a 400, as is a NUL in the email', async () => {
      expectClientError(await app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"email":' }));
      expectClientError(await post('/api/auth/login', { email: 'a\u0000@example.pt', password: 'something' }));
    });
  });

  describe('account/GetUserInfo', () => {
    test('answers the session user: role, current operator, project names, avatar', async () => {
      const token = await tokenFor('manager@cellwise.local');
      const res = await userInfo(token);
      expect(res.statusCode).toBe(200);
      const vodafone = await database.db.selectFrom('operators').select('id').where('name', '=', 'Vodafone PT').executeTakeFirstOrThrow();
      expect(res.json()).toEqual({
        id: ids.get('manager@cellwise.local'),
        firstname: 'Marta',
        lastname: 'Sousa',
        email: 'manager@cellwise.local',
        role: 'Manager',
        operator: { id: vodafone.id, name: 'Vodafone PT' },
        projects: ['Operations', 'Rollout 5G'],
        avatar: null,
      });
    });

    test('needs a valid token', async () => {
      expect([(await post('/api/account/GetUserInfo')).statusCode, (await post('/api/account/GetUserInfo')).json()]).toEqual([
        401,
        { message: UNAUTHENTICATED_MESSAGE },
      ]);
      const garbage = await userInfo('not.a.token');
      expect([garbage.statusCode, garbage.json()]).toEqual([401, { message: EXPIRED_MESSAGE }]);
    });
  });

  describe('tokens stop working', () => {
    test('when they expire', async () => {
      const token = await tokenFor('hq@cellwise.local');
      now += 8 * 60 * MINUTE - 1000;
      expect((await userInfo(token)).statusCode).toBe(200);
      now += 1000;
      expect((await userInfo(token)).statusCode).toBe(401);
      // Signed with our secret but issued 9 h ago.
      const secret = loadJwtSecret(config);
      const old = signSessionToken(
        { userId: ids.get('hq@cellwise.local')!, role: 'CellwiseHQ', operatorId: null, projects: [] },
        secret,
        Math.floor(now / 1000) - 9 * 3600,
      );
      expect((await userInfo(old)).statusCode).toBe(401);
    });

    test('when the user is deactivated, or no longer exists', async () => {
      const id = await addUser({ email: 'leaver@example.pt' });
      const token = await tokenFor('leaver@example.pt');
      expect((await userInfo(token)).statusCode).toBe(200);
      await database.db
        .updateTable('users')
        .set({ deactivated_at: new Date(now).toISOString() })
        .where('id', '=', id)
        .execute();
      expect((await userInfo(token)).statusCode).toBe(401);

      const doomed = await addUser({ email: 'deleted@example.pt' });
      const orphan = await tokenFor('deleted@example.pt');
      await database.db.deleteFrom('users').where('id', '=', doomed).execute();
      expect((await userInfo(orphan)).statusCode).toBe(401);
    });

    test('when signed with another secret', async () => {
      const forged = signSessionToken(
        { userId: ids.get(ADMIN.email)!, role: 'Administrator', operatorId: null, projects: [] },
        'x'.repeat(48),
        Math.floor(now / 1000),
      );
      expect((await userInfo(forged)).statusCode).toBe(401);
    });
  });

  describe('Account/ChangePassword', () => {
    test('needs the old password, refuses older tokens, answers a new token and tells the listeners', async () => {
      const id = await addUser({ email: 'changer@example.pt', password: 'first-password-1' });
      const before = await tokenFor('changer@example.pt', 'first-password-1');
      const heard: number[] = [];
      const listener = (userId: number) => heard.push(userId);
      accountEvents.on('passwordChanged', listener);
      try {
        const change = (body: object, token = before) => post('/api/Account/ChangePassword', body, token);
        expect((await change({ oldpassword: 'first-password-1', newpassword: 'second-password-2', confirmnewpassword: 'second-password-X' })).json()).toEqual({
          message: M.differ,
        });
        expect((await change({ oldpassword: 'not-my-password', newpassword: 'second-password-2', confirmnewpassword: 'second-password-2' })).json()).toEqual({
          message: M.oldWrong,
        });
        expect((await change({ oldpassword: 'first-password-1', newpassword: 'short', confirmnewpassword: 'short' })).json()).toEqual({ message: M.short });
        expect((await change({ oldpassword: 'first-password-1', newpassword: 'Changer@Example.pt', confirmnewpassword: 'Changer@Example.pt' })).json()).toEqual(
          { message: M.isEmail },
        );
        expect(heard).toEqual([]);

        // No time passes: the token issued in the same second as the change must still be told apart.
        const res = await change({ oldpassword: 'first-password-1', newpassword: 'second-password-2', confirmnewpassword: 'second-password-2' });
        expect(res.statusCode).toBe(200);
        const body = res.json<{ message: string; token: string }>();
        expect(body.message).toBe('Password changed!');
        expect(heard).toEqual([id]);
        expect((await userInfo(before)).statusCode).toBe(401);
        expect((await userInfo(body.token)).statusCode).toBe(200);
        expect((await login('changer@example.pt', 'first-password-1')).statusCode).toBe(400);
        const fresh = await login('changer@example.pt', 'second-password-2');
        expect(fresh.statusCode).toBe(200);
        expect((await userInfo(fresh.json<{ token: string }>().token)).statusCode).toBe(200);
      } finally {
        accountEvents.off('passwordChanged', listener);
      }
    });

    test('refuses blank, one repeated character, common and easily guessed passwords and the current one, saying why (issue 44)', async () => {
      await addUser({ email: 'maria.silva@example.pt', password: 'Current-Secret-77' });
      const token = await tokenFor('maria.silva@example.pt', 'Current-Secret-77');
      const change = (newpassword: string) =>
        post('/api/Account/ChangePassword', { oldpassword: 'Current-Secret-77', newpassword, confirmnewpassword: newpassword }, token);
      for (const [password, message] of [
        [' '.repeat(10), PASSWORD_MESSAGES.blank],
        ['\t\t\t\t\t     ', PASSWORD_MESSAGES.blank],
        ['1111111111', PASSWORD_MESSAGES.oneCharacter],
        ['ÉÉÉÉÉÉÉÉÉÉÉÉ', PASSWORD_MESSAGES.oneCharacter],
        ['password123', PASSWORD_MESSAGES.guessable],
        ['qwertyuiop', PASSWORD_MESSAGES.guessable],
        ['1234567890', PASSWORD_MESSAGES.guessable],
        ['P@ssw0rd123', PASSWORD_MESSAGES.guessable],
        ['ababababab', PASSWORD_MESSAGES.guessable],
        ['mariasilva1', PASSWORD_MESSAGES.guessable],
        ['Current-Secret-77', PASSWORD_MESSAGES.reused],
      ] as const) {
        const res = await change(password);
        expect([password, res.statusCode, res.json()]).toEqual([password, 400, { message: message }]);
      }
      // Nothing was changed, and the session still works.
      expect((await userInfo(token)).statusCode).toBe(200);
      expect((await login('maria.silva@example.pt', 'Current-Secret-77')).statusCode).toBe(200);
      expect((await change('Lisboa-Tejo-Ponte-25')).statusCode).toBe(200);
    });

    test('guessing the old password with a session is limited for that user only, and never blocks signing in', async () => {
      await addUser({ email: 'guessed@example.pt' });
      const token = await tokenFor('guessed@example.pt');
      const statuses = [];
      for (let i = 0; i < 6; i++) {
        statuses.push(
          (
            await post(
              '/api/Account/ChangePassword',
              { oldpassword: `guess-${i}-guess`, newpassword: 'another-password', confirmnewpassword: 'another-password' },
              token,
            )
          ).statusCode,
        );
      }
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
      expect((await login('guessed@example.pt', DEMO_PASSWORD)).statusCode).toBe(200);
    });

    test.each([
      ['no token', { oldpassword: 'a', newpassword: 'b', confirmnewpassword: 'b' }, false, 401],
      ['missing fields', { oldpassword: 'a' }, true, 400],
      ['wrong types', { oldpassword: ['a', 'b'], newpassword: {}, confirmnewpassword: 1 }, true, 400],
      ['over-long', { oldpassword: 'a', newpassword: 'n'.repeat(300), confirmnewpassword: 'n'.repeat(300) }, true, 400],
      ['unknown field', { oldpassword: 'a', newpassword: 'bbbbbbbbbbbb', confirmnewpassword: 'bbbbbbbbbbbb', user: 1 }, true, 400],
      ['SQL', { oldpassword: "' OR 1=1 --", newpassword: "'; DROP TABLE users; --", confirmnewpassword: "'; DROP TABLE users; --" }, true, 400],
    ])('bad input (%s) is a 4xx with a message', async (_name, payload, withToken, status) => {
      const token = withToken ? await tokenFor('client@cellwise.local') : undefined;
      expectClientError(await post('/api/Account/ChangePassword', payload, token), status);
      expect((await login('client@cellwise.local', DEMO_PASSWORD)).statusCode).toBe(200);
    });
  });

  describe('auth/recover and auth/recoverconfirmation', () => {
    test('end to end through the outbox: new password works, old fails, the link works once', async () => {
      const id = await addUser({ email: 'forgetful@example.pt', password: 'forgotten-password' });
      const oldSession = await tokenFor('forgetful@example.pt', 'forgotten-password');
      const res = await post('/api/auth/recover', { email: 'Forgetful@Example.pt' });
      expect([res.statusCode, res.json()]).toEqual([200, { message: M.recover }]);

      const link = await mailedLink('forgetful@example.pt', 'recoverconfirmation');
      expect(link.origin).toBe('https://console.example.pt');
      expect(link.searchParams.get('user')).toBe(String(id));
      const payload = {
        password: 'remembered-password',
        rpassword: 'remembered-password',
        token: link.searchParams.get('token'),
        user: link.searchParams.get('user'),
      };

      // Mistakes do not use the link up.
      expect((await post('/api/auth/recoverconfirmation', { ...payload, rpassword: 'something-else' })).json()).toEqual({ message: M.differ });
      expect((await post('/api/auth/recoverconfirmation', { ...payload, password: 'short', rpassword: 'short' })).json()).toEqual({ message: M.short });

      const done = await post('/api/auth/recoverconfirmation', payload);
      expect(done.statusCode).toBe(200);
      const { token } = done.json<{ token: string }>();
      expect((await userInfo(token)).json<UserInfo>().email).toBe('forgetful@example.pt');
      expect((await userInfo(oldSession)).statusCode).toBe(401);
      expect((await login('forgetful@example.pt', 'forgotten-password')).statusCode).toBe(400);
      expect((await login('forgetful@example.pt', 'remembered-password')).statusCode).toBe(200);

      const again = await post('/api/auth/recoverconfirmation', { ...payload, password: 'third-password-3', rpassword: 'third-password-3' });
      expect([again.statusCode, again.json()]).toEqual([400, { message: M.badLink }]);
    });

    test('a recovery link refuses weak passwords and the current one, and stays usable (issue 44)', async () => {
      await addUser({ email: 'weakling@example.pt', password: 'Kept-Secret-2026' });
      expect((await post('/api/auth/recover', { email: 'weakling@example.pt' })).statusCode).toBe(200);
      const link = await mailedLink('weakling@example.pt', 'recoverconfirmation');
      const choose = (password: string) =>
        post('/api/auth/recoverconfirmation', { password, rpassword: password, token: link.searchParams.get('token'), user: link.searchParams.get('user') });
      for (const [password, message] of [
        [' '.repeat(12), PASSWORD_MESSAGES.blank],
        ['zzzzzzzzzz', PASSWORD_MESSAGES.oneCharacter],
        ['iloveyou12', PASSWORD_MESSAGES.guessable],
        ['Kept-Secret-2026', PASSWORD_MESSAGES.reused],
      ] as const) {
        expect((await choose(password)).json()).toEqual({ message });
      }
      expect((await login('weakling@example.pt', 'Kept-Secret-2026')).statusCode).toBe(200);
      expect((await choose('Brand-New-Harbour-9')).statusCode).toBe(200);
    });

    test('the answer is the same for unknown, unconfirmed and deactivated addresses, and they get no mail', async () => {
      await addUser({ email: 'pending@example.pt', confirmed: false });
      const off = await addUser({ email: 'off@example.pt' });
      await database.db
        .updateTable('users')
        .set({ deactivated_at: new Date(now).toISOString() })
        .where('id', '=', off)
        .execute();
      await app.mailer.idle();
      const before = readOutbox(config.dataDir).length;
      for (const email of ['nobody@example.pt', 'pending@example.pt', 'off@example.pt']) {
        const res = await post('/api/auth/recover', { email });
        expect([res.statusCode, res.json()]).toEqual([200, { message: M.recover }]);
      }
      await app.mailer.idle();
      expect(readOutbox(config.dataDir)).toHaveLength(before);
    });

    test('a recovery link expires after an hour, and a newer one replaces it', async () => {
      await addUser({ email: 'slow@example.pt' });
      await post('/api/auth/recover', { email: 'slow@example.pt' });
      const first = await mailedLink('slow@example.pt', 'recoverconfirmation');
      now += 1000;
      await post('/api/auth/recover', { email: 'slow@example.pt' });
      const second = await mailedLink('slow@example.pt', 'recoverconfirmation');
      expect(second.searchParams.get('token')).not.toBe(first.searchParams.get('token'));
      const confirm = (link: URL) =>
        post('/api/auth/recoverconfirmation', {
          password: 'brand-new-password',
          rpassword: 'brand-new-password',
          token: link.searchParams.get('token'),
          user: Number(link.searchParams.get('user')),
        });
      expect((await confirm(first)).json()).toEqual({ message: M.badLink });
      now += 60 * MINUTE;
      expect((await confirm(second)).json()).toEqual({ message: M.badLink });
    });

    test("without PUBLIC_URL the link points at the console's own origin, never at the Host header", async () => {
      const other = await buildApp({ config: { ...config, publicUrl: null }, db: database.db, dialect: database.dialect, clock: () => now }, { logger: false });
      try {
        await addUser({ email: 'hosted@example.pt' });
        await other.inject({ method: 'POST', url: '/api/auth/recover', payload: { email: 'hosted@example.pt' }, headers: { host: 'evil.example' } });
        await other.mailer.idle();
        const mail = readOutbox(config.dataDir)
          .filter((m) => m.to === 'hosted@example.pt')
          .at(-1);
        expect(mail?.text).toMatch(new RegExp(`http://localhost:${config.port}/auth/recoverconfirmation\\?token=[\\w-]+&user=\\d+`));
        expect(mail?.text).not.toContain('evil.example');
      } finally {
        await other.close();
      }
    });

    test('recover: the answer comes before the lookup, and is limited per address (429 + Retry-After)', async () => {
      now = Date.parse('2026-03-05T09:00:00.000Z');
      const ask = (email: string, address: string) => app.inject({ method: 'POST', url: '/api/auth/recover', payload: { email }, remoteAddress: address });
      const answers = [];
      for (let i = 0; i < 6; i++) answers.push((await ask(`nobody-${i}@example.pt`, '203.0.113.30')).statusCode);
      expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
      const refused = await ask('nobody-9@example.pt', '203.0.113.30');
      expect(refused.headers['retry-after']).toBe(String(15 * 60));
      // Per email too, whatever the address: a mailbox is not flooded with recovery mails.
      const perEmail = [];
      for (let i = 0; i < 4; i++) perEmail.push((await ask('flooded@example.pt', `198.51.100.${40 + i}`)).statusCode);
      expect(perEmail).toEqual([200, 200, 200, 429]);
    });

    test.each([
      ['no body', '/api/auth/recover', undefined],
      ['missing email', '/api/auth/recover', {}],
      ['not an email', '/api/auth/recover', { email: "x' OR '1'='1" }],
      ['over-long email', '/api/auth/recover', { email: `${'r'.repeat(260)}@example.pt` }],
      ['unknown field', '/api/auth/recover', { email: 'a@example.pt', redirect: 'https://evil.example' }],
      ['missing token', '/api/auth/recoverconfirmation', { password: 'long-enough-pw', rpassword: 'long-enough-pw', user: 1 }],
      ['garbage token', '/api/auth/recoverconfirmation', { password: 'long-enough-pw', rpassword: 'long-enough-pw', token: "' OR 1=1 --", user: 1 }],
      ['over-long token', '/api/auth/recoverconfirmation', { password: 'long-enough-pw', rpassword: 'long-enough-pw', token: 't'.repeat(201), user: 1 }],
      ['user is text', '/api/auth/recoverconfirmation', { password: 'long-enough-pw', rpassword: 'long-enough-pw', token: 'abc', user: 'admin' }],
      ['user is huge', '/api/auth/recoverconfirmation', { password: 'long-enough-pw', rpassword: 'long-enough-pw', token: 'abc', user: 99999999999999 }],
      ['user is negative', '/api/auth/recoverconfirmation', { password: 'long-enough-pw', rpassword: 'long-enough-pw', token: 'abc', user: -1 }],
      ['user is an object', '/api/auth/completeRegistration', { password: 'long-enough-pw', rpassword: 'long-enough-pw', token: 'abc', user: { id: 1 } }],
      [
        'unknown field',
        '/api/auth/completeRegistration',
        { password: 'long-enough-pw', rpassword: 'long-enough-pw', token: 'abc', user: 1, role: 'Administrator' },
      ],
    ])('bad input (%s) to %s is a 400 with a message', async (_name, url, payload) => {
      expectClientError(await post(url, payload));
    });
  });

  describe('auth/completeRegistration', () => {
    test('sets the first password, confirms the e-mail and signs in; the link works once and is bound to its user', async () => {
      const id = await addUser({ email: 'newcomer@example.pt', password: null, confirmed: false });
      const token = await issueOneTimeToken(database.db, id, 'confirm', now);
      const payload = { password: 'my-first-password', rpassword: 'my-first-password', token, user: String(id) };

      expect((await post('/api/auth/completeRegistration', { ...payload, user: ids.get('client@cellwise.local') })).json()).toEqual({ message: M.badLink });
      // A confirmation token is not a recovery token.
      expect((await post('/api/auth/recoverconfirmation', payload)).json()).toEqual({ message: M.badLink });
      expect((await post('/api/auth/completeRegistration', { ...payload, password: 'newcomer@example.pt', rpassword: 'newcomer@example.pt' })).json()).toEqual({
        message: M.isEmail,
      });

      const res = await post('/api/auth/completeRegistration', payload);
      expect(res.statusCode).toBe(200);
      expect((await userInfo(res.json<{ token: string }>().token)).json<UserInfo>().id).toBe(id);
      const row = await database.db.selectFrom('users').select(['email_confirmed']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(Number(row.email_confirmed)).toBe(1);
      expect((await login('newcomer@example.pt', 'my-first-password')).statusCode).toBe(200);
      expect((await post('/api/auth/completeRegistration', payload)).json()).toEqual({ message: M.badLink });
    });

    test('a confirmation link lasts 7 days', async () => {
      const id = await addUser({ email: 'late@example.pt', password: null, confirmed: false });
      const token = await issueOneTimeToken(database.db, id, 'confirm', now);
      now += 7 * 24 * 60 * MINUTE;
      const res = await post('/api/auth/completeRegistration', { password: 'my-first-password', rpassword: 'my-first-password', token, user: id });
      expect([res.statusCode, res.json()]).toEqual([400, { message: M.badLink }]);
    });
  });

  describe('Account/UpdateSettings', () => {
    const operatorId = async (name: string) => (await database.db.selectFrom('operators').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;

    test('changes the names; the e-mail may be sent back unchanged but not changed', async () => {
      await addUser({ email: 'profile@example.pt', operators: ['Vodafone PT'] });
      const token = await tokenFor('profile@example.pt');
      const vodafone = await operatorId('Vodafone PT');
      const res = await post(
        '/api/Account/UpdateSettings',
        { firstname: ' Ana ', lastname: "O'Neill", email: 'PROFILE@example.pt', operatorId: vodafone },
        token,
      );
      expect(res.statusCode).toBe(200);
      expect(res.json<UserInfo>()).toMatchObject({ firstname: 'Ana', lastname: "O'Neill", operator: { id: vodafone, name: 'Vodafone PT' } });
      expect((await userInfo(token)).json<UserInfo>().lastname).toBe("O'Neill");

      const changed = await post(
        '/api/Account/UpdateSettings',
        { firstname: 'Ana', lastname: 'X', email: 'someone-else@example.pt', operatorId: vodafone },
        token,
      );
      expect([changed.statusCode, changed.json()]).toEqual([400, { message: 'The email address cannot be changed.' }]);
    });

    test('SQL in a name is stored as text', async () => {
      await addUser({ email: 'bobby@example.pt', operators: ['NOS'] });
      const token = await tokenFor('bobby@example.pt');
      const name = "Robert'); DROP TABLE users; --";
      const res = await post('/api/Account/UpdateSettings', { firstname: name, lastname: "' OR 1=1 --", operatorId: await operatorId('NOS') }, token);
      expect(res.statusCode).toBe(200);
      expect((await userInfo(token)).json<UserInfo>()).toMatchObject({ firstname: name, lastname: "' OR 1=1 --" });
      const { count } = await database.db
        .selectFrom('users')
        .select(sql<number>`count(*)`.as('count'))
        .executeTakeFirstOrThrow();
      expect(Number(count)).toBeGreaterThan(5);
    });

    test('only Administrator, Manager and CellwiseHQ choose the operator, among their own (Administrator: any)', async () => {
      const [vodafone, nos, meo] = [await operatorId('Vodafone PT'), await operatorId('NOS'), await operatorId('MEO')];
      const body = (id: number) => ({ firstname: 'Same', lastname: 'Person', operatorId: id });

      await addUser({ email: 'os-two@example.pt', role: 'CellwiseOS', operators: ['Vodafone PT', 'NOS'] });
      const os = await tokenFor('os-two@example.pt');
      expect((await post('/api/Account/UpdateSettings', body(vodafone), os)).statusCode).toBe(200);
      const osSwitch = await post('/api/Account/UpdateSettings', body(nos), os);
      expect([osSwitch.statusCode, osSwitch.json()]).toEqual([403, { message: M.forbidden }]);

      await addUser({ email: 'mgr-two@example.pt', role: 'Manager', operators: ['Vodafone PT', 'NOS'] });
      const manager = await tokenFor('mgr-two@example.pt');
      const switched = await post('/api/Account/UpdateSettings', body(nos), manager);
      expect([switched.statusCode, switched.json<UserInfo>().operator]).toEqual([200, { id: nos, name: 'NOS' }]);
      expect((await userInfo(manager)).json<UserInfo>().operator?.name).toBe('NOS');
      expect((await post('/api/Account/UpdateSettings', body(meo), manager)).statusCode).toBe(403);
      expect((await post('/api/Account/UpdateSettings', body(987654), manager)).statusCode).toBe(403);

      await addUser({ email: 'hq-one@example.pt', role: 'CellwiseHQ', operators: ['MEO'] });
      const hq = await tokenFor('hq-one@example.pt');
      expect((await post('/api/Account/UpdateSettings', body(meo), hq)).statusCode).toBe(200);
      expect((await post('/api/Account/UpdateSettings', body(vodafone), hq)).statusCode).toBe(403);

      const { id: lonely } = await database.db
        .insertInto('operators')
        .values({ name: 'Lonely Telecom', avatar: null, created_at: new Date(now).toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow();
      const admin = await tokenFor(ADMIN.email, ADMIN.password);
      const adminBody = { firstname: 'Cellwise', lastname: 'Administrator', operatorId: lonely };
      expect((await post('/api/Account/UpdateSettings', adminBody, admin)).json<UserInfo>().operator).toEqual({ id: lonely, name: 'Lonely Telecom' });
      const missing = await post('/api/Account/UpdateSettings', { ...adminBody, operatorId: 987654 }, admin);
      expect([missing.statusCode, missing.json()]).toEqual([400, { message: 'This operator does not exist.' }]);
      expectClientError(await post('/api/Account/UpdateSettings', { ...adminBody, operatorId: 99999999999 }, admin));
      expect((await post('/api/Account/UpdateSettings', { ...adminBody, operatorId: vodafone }, admin)).statusCode).toBe(200);
    });

    test.each([
      ['no body', undefined],
      ['missing firstname', { lastname: 'L', operatorId: 1 }],
      ['blank firstname', { firstname: '   ', lastname: 'L', operatorId: 1 }],
      ['empty lastname', { firstname: 'F', lastname: '', operatorId: 1 }],
      ['over-long firstname', { firstname: 'f'.repeat(101), lastname: 'L', operatorId: 1 }],
      ['control character', { firstname: 'F\u0000', lastname: 'L', operatorId: 1 }],
      ['operatorId is text', { firstname: 'F', lastname: 'L', operatorId: 'NOS' }],
      ['operatorId is zero', { firstname: 'F', lastname: 'L', operatorId: 0 }],
      ['operatorId is fractional', { firstname: 'F', lastname: 'L', operatorId: 1.5 }],
      ['over-long email', { firstname: 'F', lastname: 'L', email: `${'e'.repeat(260)}@x.pt`, operatorId: 1 }],
      ['unknown field', { firstname: 'F', lastname: 'L', operatorId: 1, role: 'Administrator' }],
    ])('bad input (%s) is a 400 with a message', async (_name, payload) => {
      const token = await tokenFor('hq@cellwise.local');
      expectClientError(await post('/api/Account/UpdateSettings', payload, token));
    });

    test('needs a session', async () => {
      expectClientError(await post('/api/Account/UpdateSettings', { firstname: 'F', lastname: 'L', operatorId: 1 }), 401);
    });
  });

  describe('Account/GetUserOperators', () => {
    const operatorsOf = (userId: number | string, token: string) => get(`/api/Account/GetUserOperators?userId=${userId}`, token);

    test("one's own operators, sorted by name", async () => {
      const manager = await tokenFor('manager@cellwise.local');
      const res = await operatorsOf(ids.get('manager@cellwise.local')!, manager);
      expect(res.statusCode).toBe(200);
      expect(res.json<Array<{ name: string }>>().map((o) => o.name)).toEqual(['NOS', 'Vodafone PT']);
      expect(res.json<Array<{ id: unknown }>>().every((o) => Number.isInteger(o.id))).toBe(true);
      const admin = await tokenFor(ADMIN.email, ADMIN.password);
      expect((await operatorsOf(ids.get(ADMIN.email)!, admin)).json<Array<{ name: string }>>().map((o) => o.name)).toEqual(['MEO', 'NOS', 'Vodafone PT']);
    });

    test("others' only for Administrators and Managers (a Manager within their operators); unknown user 404", async () => {
      const os = await tokenFor('os@cellwise.local');
      const manager = await tokenFor('manager@cellwise.local');
      const admin = await tokenFor(ADMIN.email, ADMIN.password);
      expect([
        (await operatorsOf(ids.get('manager@cellwise.local')!, os)).statusCode,
        (await operatorsOf(ids.get('manager@cellwise.local')!, os)).json(),
      ]).toEqual([403, { message: M.forbidden }]);
      expect((await operatorsOf(ids.get('os@cellwise.local')!, manager)).json()).toEqual([{ id: expect.any(Number), name: 'Vodafone PT' }]);
      const meoOnly = await addUser({ email: 'meo-only@example.pt', operators: ['MEO'] });
      expect((await operatorsOf(meoOnly, manager)).statusCode).toBe(403);
      expect((await operatorsOf(meoOnly, admin)).json()).toEqual([{ id: expect.any(Number), name: 'MEO' }]);
      const unknown = await operatorsOf(987654, admin);
      expect([unknown.statusCode, unknown.json()]).toEqual([404, { message: 'User not found.' }]);
      // Beyond any id the database can hold: bad input, said before any lookup.
      expect((await operatorsOf(99999999999, admin)).statusCode).toBe(400);
    });

    test.each([
      ['missing', '/api/Account/GetUserOperators'],
      ['text', '/api/Account/GetUserOperators?userId=abc'],
      ['SQL', `/api/Account/GetUserOperators?userId=${encodeURIComponent('1 OR 1=1')}`],
      ['zero', '/api/Account/GetUserOperators?userId=0'],
      ['unknown parameter', '/api/Account/GetUserOperators?userId=1&role=Administrator'],
    ])('bad query (%s) is a 400 with a message', async (_name, url) => {
      const admin = await tokenFor(ADMIN.email, ADMIN.password);
      expectClientError(await get(url, admin));
    });

    test('needs a session', async () => {
      expectClientError(await get('/api/Account/GetUserOperators?userId=1'), 401);
    });
  });
});
