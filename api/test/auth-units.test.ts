import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { hashOneTimeToken, issueOneTimeToken, findOneTimeToken, markOneTimeTokenUsed, ONE_TIME_TOKEN_LIFETIME_MS } from '../src/auth/one-time-tokens';
import { loadJwtSecret, signSessionToken, TOKEN_LIFETIME_SECONDS, verifySessionToken } from '../src/auth/jwt';
import { hashPassword, passwordProblem, verifyPassword } from '../src/auth/passwords';
import { DatabaseLoginThrottle, LOCKOUT_MS, lockedMessage, RedisLoginThrottle, type LoginThrottle } from '../src/auth/throttle';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { seed } from '../src/seed';
import { fakeWebRoot } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';

const SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
const NOW = 1_800_000_000; // 2027-01-15, seconds
const claims = { userId: 42, role: 'CellwiseOS' as const, operatorId: 7, projects: ['Operations', 'Swap 2026'] };

function part(token: string, index: number): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[index] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

function forge(header: object, payload: object, secret = SECRET): string {
  const body = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

describe('session tokens (JWT HS256)', () => {
  test('carry the claims, with exp in seconds 8 hours after iat', () => {
    const token = signSessionToken(claims, SECRET, NOW);
    expect(part(token, 0)).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(part(token, 1)).toEqual({ sub: '42', role: 'CellwiseOS', operatorId: 7, projects: ['Operations', 'Swap 2026'], iat: NOW, exp: NOW + 8 * 3600 });
    expect(TOKEN_LIFETIME_SECONDS).toBe(28800);
    expect(verifySessionToken(token, SECRET, NOW + 60)).toEqual({ ...claims, iat: NOW, exp: NOW + 28800 });
  });

  test('expire at exp', () => {
    const token = signSessionToken(claims, SECRET, NOW);
    expect(verifySessionToken(token, SECRET, NOW + 28799)).not.toBeNull();
    expect(verifySessionToken(token, SECRET, NOW + 28800)).toBeNull();
  });

  test('refuse another secret, a changed payload, alg none and garbage', () => {
    const token = signSessionToken(claims, SECRET, NOW);
    expect(verifySessionToken(token, 'another-secret-that-is-long-enough-000000000', NOW)).toBeNull();
    const [header, , sig] = token.split('.');
    const promoted = Buffer.from(JSON.stringify({ ...part(token, 1), role: 'Administrator' })).toString('base64url');
    expect(verifySessionToken(`${header}.${promoted}.${sig}`, SECRET, NOW)).toBeNull();
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${promoted}.`;
    expect(verifySessionToken(none, SECRET, NOW)).toBeNull();
    // Correctly signed, but not HS256 by its own account.
    expect(verifySessionToken(forge({ alg: 'HS512', typ: 'JWT' }, part(token, 1)), SECRET, NOW)).toBeNull();
    for (const junk of ['', 'a.b', 'a.b.c.d', '....', "' OR 1=1 --", `${header}.%%%.${sig}`, 'x'.repeat(10000)]) {
      expect(verifySessionToken(junk, SECRET, NOW)).toBeNull();
    }
  });

  test('refuse well-signed payloads of the wrong shape', () => {
    const good = { sub: '42', role: 'Client', operatorId: null, projects: [], iat: NOW, exp: NOW + 100 };
    expect(verifySessionToken(forge({ alg: 'HS256' }, good), SECRET, NOW)).toMatchObject({ userId: 42, role: 'Client', operatorId: null });
    for (const bad of [
      { ...good, sub: 42 },
      { ...good, sub: 'abc' },
      { ...good, sub: '0' },
      { ...good, role: 'Root' },
      { ...good, projects: 'Operations' },
      { ...good, exp: String(NOW + 100) },
      { ...good, operatorId: '1' },
    ]) {
      expect(verifySessionToken(forge({ alg: 'HS256' }, bad), SECRET, NOW)).toBeNull();
    }
  });
});

describe('the signing secret', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-secret-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('is generated once into DATA_DIR/jwt-secret, readable by the owner only, and reused', () => {
    const dataDir = path.join(dir, 'data');
    const first = loadJwtSecret({ jwtSecret: null, dataDir });
    expect(first).toMatch(/^[A-Za-z0-9_-]{64}$/);
    const file = path.join(dataDir, 'jwt-secret');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadJwtSecret({ jwtSecret: null, dataDir })).toBe(first);
    expect(fs.readdirSync(dataDir)).toEqual(['jwt-secret']);
  });

  test('JWT_SECRET wins and nothing is written', () => {
    expect(loadJwtSecret({ jwtSecret: 'x'.repeat(40), dataDir: dir })).toBe('x'.repeat(40));
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test('a damaged secret file stops the start rather than silently changing every session', () => {
    fs.writeFileSync(path.join(dir, 'jwt-secret'), 'short\n');
    expect(() => loadJwtSecret({ jwtSecret: null, dataDir: dir })).toThrow(/no usable secret/);
  });
});

describe('passwords', () => {
  test('are hashed with argon2id, 19 MiB, 2 passes, 1 lane, salted', async () => {
    const hash = await hashPassword('correct horse battery');
    const [, algorithm, version, params] = hash.split('$');
    expect([algorithm, version]).toEqual(['argon2id', 'v=19']);
    expect(Object.fromEntries((params ?? '').split(',').map((kv) => kv.split('=')))).toEqual({ m: '19456', t: '2', p: '1' });
    expect(await hashPassword('correct horse battery')).not.toBe(hash);
    expect(await verifyPassword(hash, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(hash, 'correct horse batterY')).toBe(false);
    expect(await verifyPassword('not a hash', 'anything')).toBe(false);
  });

  test('policy: at least 10 characters, not the email', () => {
    expect(passwordProblem('123456789', 'a@b.pt')).toBe('The password must have at least 10 characters.');
    expect(passwordProblem('Someone@Example.pt', 'someone@example.pt')).toBe('The password must not be your email address.');
    expect(passwordProblem('1234567890', 'a@b.pt')).toBeNull();
    expect(passwordProblem("' OR 1=1 --", 'a@b.pt')).toBeNull();
  });
});

test('the lockout message names the end of the lock, rounded up to the minute, in UTC', () => {
  expect(lockedMessage(Date.parse('2026-03-02T21:14:00Z'))).toBe('Too many failed attempts. The account is locked until 21:14 (UTC).');
  expect(lockedMessage(Date.parse('2026-03-02T21:14:30Z'))).toBe('Too many failed attempts. The account is locked until 21:15 (UTC).');
  expect(lockedMessage(Date.parse('2026-03-02T23:59:01Z'))).toBe('Too many failed attempts. The account is locked until 00:00 (UTC).');
});

/** Both stores must behave the same; Redis is exercised when REDIS_URL is set. */
function throttleContract(name: string, make: () => Promise<{ throttle: LoginThrottle; done: () => Promise<void> }>) {
  describe(`login throttle in ${name}`, () => {
    let throttle: LoginThrottle;
    let done: () => Promise<void>;
    const t0 = Date.parse('2026-03-02T21:00:00Z');
    beforeAll(async () => {
      ({ throttle, done } = await make());
    });
    afterAll(async () => done());

    test('locks after five failures in a row, for 15 minutes, then counts from zero', async () => {
      const email = 'five@example.pt';
      for (let i = 1; i <= 4; i++) expect(await throttle.recordFailure(email, t0 + i)).toBeNull();
      expect(await throttle.lockedUntil(email, t0)).toBeNull();
      expect(await throttle.recordFailure(email, t0 + 5)).toBe(t0 + 5 + LOCKOUT_MS);
      expect(await throttle.lockedUntil(email, t0 + 6)).toBe(t0 + 5 + LOCKOUT_MS);
      expect(await throttle.lockedUntil(email, t0 + 5 + LOCKOUT_MS - 1)).toBe(t0 + 5 + LOCKOUT_MS);
      expect(await throttle.lockedUntil(email, t0 + 5 + LOCKOUT_MS)).toBeNull();
      const later = t0 + 20 * 60_000;
      for (let i = 1; i <= 4; i++) expect(await throttle.recordFailure(email, later)).toBeNull();
      expect(await throttle.recordFailure(email, later)).toBe(later + LOCKOUT_MS);
    });

    test('a reset clears the count and the lock; e-mails are counted apart', async () => {
      const email = 'reset@example.pt';
      for (let i = 0; i < 4; i++) await throttle.recordFailure(email, t0);
      await throttle.recordFailure('other@example.pt', t0);
      await throttle.reset(email);
      for (let i = 0; i < 4; i++) expect(await throttle.recordFailure(email, t0)).toBeNull();
      expect(await throttle.recordFailure(email, t0)).not.toBeNull();
      await throttle.reset(email);
      expect(await throttle.lockedUntil(email, t0)).toBeNull();
      expect(await throttle.lockedUntil('other@example.pt', t0)).toBeNull();
    });

    test('concurrent failures are all counted', async () => {
      const email = 'burst@example.pt';
      const results = await Promise.all(Array.from({ length: 5 }, () => throttle.recordFailure(email, t0)));
      expect(results.filter((r) => r !== null)).toHaveLength(1);
      expect(await throttle.lockedUntil(email, t0)).toBe(t0 + LOCKOUT_MS);
    });
  });
}

for (const kind of TEST_DATABASES) {
  throttleContract(`the database (${kind.name})`, async () => {
    const database = await kind.open();
    return { throttle: new DatabaseLoginThrottle(database.db), done: () => database.dispose() };
  });
}
if (process.env.REDIS_URL) {
  test('with REDIS_URL the app keeps login throttling in Redis, not in the database', async () => {
    const kind = TEST_DATABASES[0]!;
    const database = await kind.open();
    const webRoot = fakeWebRoot();
    const config = loadConfig({ WEB_ROOT: webRoot, DATA_DIR: path.join(webRoot, 'data'), LOG_LEVEL: 'silent', REDIS_URL: process.env.REDIS_URL });
    const app = await buildApp({ config, db: database.db, dialect: database.dialect }, { logger: false });
    const redis = new Redis(process.env.REDIS_URL!);
    const email = `redis-${process.pid}-${Date.now()}@example.pt`;
    try {
      const statuses = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'wrong-password' } })).statusCode);
      expect(statuses).toEqual([400, 400, 400, 400, 423]);
      expect(await database.db.selectFrom('login_attempts').selectAll().execute()).toEqual([]);
      expect(Number(await redis.get(`cellwise:login:lock:${email}`))).toBeGreaterThan(Date.now());
    } finally {
      await redis.del(`cellwise:login:lock:${email}`, `cellwise:login:failures:${email}`);
      await redis.quit();
      await app.close();
      await database.dispose();
    }
  });

  throttleContract('Redis', async () => {
    const prefix = `cellwise-test:${process.pid}:${Date.now()}:`;
    const redis = new Redis(process.env.REDIS_URL!);
    const throttle = new RedisLoginThrottle(redis, prefix);
    return {
      throttle,
      done: async () => {
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length > 0) await redis.del(...keys);
        await throttle.close();
      },
    };
  });
}

describe.each(TEST_DATABASES)('one-time tokens on $name', (kind) => {
  let database: TestDatabase;
  let userId: number;
  let otherId: number;
  const t0 = Date.parse('2026-03-02T21:00:00Z');

  beforeAll(async () => {
    database = await kind.open();
    await seed(database.db, { adminEmail: 'admin@example.pt', adminPassword: 'Admin-Password-1', demoData: true });
    userId = (await database.db.selectFrom('users').select('id').where('email', '=', 'admin@example.pt').executeTakeFirstOrThrow()).id;
    otherId = (await database.db.selectFrom('users').select('id').where('email', '=', 'os@cellwise.local').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => database.dispose());

  test('are random, stored only as a SHA-256 hash, and work once', async () => {
    const token = await issueOneTimeToken(database.db, userId, 'recover', t0);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await database.db.selectFrom('one_time_tokens').selectAll().where('user_id', '=', userId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toBe(hashOneTimeToken(token));
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(token);

    const id = await findOneTimeToken(database.db, userId, 'recover', token, t0 + 1000);
    expect(id).not.toBeNull();
    expect(await findOneTimeToken(database.db, userId, 'confirm', token, t0)).toBeNull();
    expect(await findOneTimeToken(database.db, otherId, 'recover', token, t0)).toBeNull();
    expect(await markOneTimeTokenUsed(database.db, id!, t0)).toBe(true);
    expect(await markOneTimeTokenUsed(database.db, id!, t0)).toBe(false);
    expect(await findOneTimeToken(database.db, userId, 'recover', token, t0)).toBeNull();
  });

  test.each([
    ['recover', 60 * 60 * 1000],
    ['confirm', 7 * 24 * 60 * 60 * 1000],
  ] as const)('a %s token lives %i ms', async (purpose, lifetime) => {
    expect(ONE_TIME_TOKEN_LIFETIME_MS[purpose]).toBe(lifetime);
    const token = await issueOneTimeToken(database.db, otherId, purpose, t0);
    expect(await findOneTimeToken(database.db, otherId, purpose, token, t0 + lifetime - 1)).not.toBeNull();
    expect(await findOneTimeToken(database.db, otherId, purpose, token, t0 + lifetime)).toBeNull();
  });

  test('a new token of the same purpose replaces the previous one; other purposes are untouched', async () => {
    const confirm = await issueOneTimeToken(database.db, otherId, 'confirm', t0);
    const first = await issueOneTimeToken(database.db, otherId, 'recover', t0);
    const second = await issueOneTimeToken(database.db, otherId, 'recover', t0);
    expect(await findOneTimeToken(database.db, otherId, 'recover', first, t0)).toBeNull();
    expect(await findOneTimeToken(database.db, otherId, 'recover', second, t0)).not.toBeNull();
    expect(await findOneTimeToken(database.db, otherId, 'confirm', confirm, t0)).not.toBeNull();
  });
});
