import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hashOneTimeToken, issueOneTimeToken, findOneTimeToken, markOneTimeTokenUsed, ONE_TIME_TOKEN_LIFETIME_MS } from '../src/auth/one-time-tokens';
import { loadJwtSecret, signSessionToken, TOKEN_LIFETIME_SECONDS, verifySessionToken } from '../src/auth/jwt';
import { hashPassword, PASSWORD_MESSAGES, passwordProblem, verifyPassword } from '../src/auth/passwords';
import { accountDelayMs, Limiter, limitKeys, MemoryCounterStore, RedisCounterStore, tooManyMessage, type CounterStore } from '../src/auth/limits';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { seed } from '../src/seed';
import { fakeWebRoot } from './support/app';
import { TEST_DATABASES, type TestDatabase } from './support/databases';
import { requireRedis, TEST_REDIS_URL } from './support/realtime';

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
    expect(passwordProblem('Lisboa-Tejo-25', 'a@b.pt')).toBeNull();
    expect(passwordProblem("' OR 1=1 --", 'a@b.pt')).toBeNull();
    // The strength estimate reads the first 32 characters (its cost grows fast with length): a strong start
    // is enough, a common one refuses however it goes on, and one character repeated is refused at any length.
    expect(passwordProblem(`Lisboa-Tejo-Ponte-25${'a'.repeat(200)}`, 'a@b.pt')).toBeNull();
    expect(passwordProblem(`${'password'.repeat(4)}-Lisboa-Tejo-Ponte-25`, 'a@b.pt')).toBe(PASSWORD_MESSAGES.guessable);
    expect(passwordProblem('z'.repeat(256), 'a@b.pt')).toBe(PASSWORD_MESSAGES.oneCharacter);
  });
});

test('the 429 message gives the wait in seconds, then in whole minutes', () => {
  expect(tooManyMessage(400)).toBe('Too many attempts. Try again in 1 second.');
  expect(tooManyMessage(8_000)).toBe('Too many attempts. Try again in 8 seconds.');
  expect(tooManyMessage(60_000)).toBe('Too many attempts. Try again in 1 minute.');
  expect(tooManyMessage(14 * 60_000 + 1)).toBe('Too many attempts. Try again in 15 minutes.');
});

test('the account delay starts after five failures, doubles, and never exceeds 30 s', () => {
  expect([1, 4].map(accountDelayMs)).toEqual([0, 0]);
  expect([5, 6, 7, 8, 9, 10, 50].map(accountDelayMs)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
});

/** Both stores must behave the same: memory for the embedded console, Redis for several instances. */
function counterContract(name: string, make: () => Promise<{ store: CounterStore; done: () => Promise<void> }>) {
  describe(`abuse-limit counters in ${name}`, () => {
    let limiter: Limiter;
    let done: () => Promise<void>;
    const t0 = Date.parse('2026-03-02T21:00:00Z');
    const rule = { limit: 3, windowMs: 60_000, blockMs: 10 * 60_000 };
    beforeAll(async () => {
      const made = await make();
      limiter = new Limiter(made.store);
      done = made.done;
    });
    afterAll(async () => done());

    test('the hit over the limit blocks the key for the block time; the keys are counted apart', async () => {
      expect(await limiter.count('k1', rule, t0)).toBeNull();
      expect(await limiter.count('k2', rule, t0)).toBeNull();
      expect(await limiter.count('k1', rule, t0 + 1)).toBeNull();
      expect(await limiter.retryAfter(['k1'], t0 + 2)).toBeNull();
      // The third hit reaches the limit: it passes, and blocks what follows.
      expect(await limiter.count('k1', rule, t0 + 2)).toBe(10 * 60_000);
      expect(await limiter.retryAfter(['k2', 'k1'], t0 + 3)).toBe(10 * 60_000 - 1);
      expect(await limiter.retryAfter(['k2'], t0 + 3)).toBeNull();
      expect(await limiter.retryAfter(['k1'], t0 + 2 + 10 * 60_000)).toBeNull();
    });

    test('a reset forgets counts and blocks', async () => {
      for (let i = 0; i < 3; i++) await limiter.count('r1', rule, t0);
      expect(await limiter.retryAfter(['r1'], t0)).not.toBeNull();
      await limiter.store.reset('r1');
      expect(await limiter.retryAfter(['r1'], t0)).toBeNull();
      expect(await limiter.count('r1', rule, t0)).toBeNull();
    });

    test('concurrent hits are all counted: exactly one of them goes over', async () => {
      const results = await Promise.all(Array.from({ length: 5 }, () => limiter.store.hit('burst', 60_000, t0)));
      expect([...results].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
    });

    test('failed sign-ins delay the account progressively, from 1 s up to 30 s', async () => {
      for (let i = 0; i < 4; i++) await limiter.countAccountFailure('slow@example.pt', t0);
      expect(await limiter.retryAfter([limitKeys.loginAccount('slow@example.pt')], t0)).toBeNull();
      await limiter.countAccountFailure('slow@example.pt', t0);
      expect(await limiter.retryAfter([limitKeys.loginAccount('slow@example.pt')], t0)).toBe(1_000);
      await limiter.countAccountFailure('slow@example.pt', t0 + 1_000);
      expect(await limiter.retryAfter([limitKeys.loginAccount('slow@example.pt')], t0 + 1_000)).toBe(2_000);
    });
  });
}

counterContract('memory', async () => {
  const store = new MemoryCounterStore();
  return { store, done: () => store.close() };
});

test('in memory, a window ends: the count starts again', async () => {
  const store = new MemoryCounterStore();
  const t0 = Date.parse('2026-03-02T21:00:00Z');
  expect(await store.hit('w', 60_000, t0)).toBe(1);
  expect(await store.hit('w', 60_000, t0 + 59_999)).toBe(2);
  expect(await store.hit('w', 60_000, t0 + 60_000)).toBe(1);
});

counterContract('Redis', async () => {
  const prefix = `cellwise-test:${process.pid}:${Date.now()}:`;
  const redis = await requireRedis();
  const store = new RedisCounterStore(redis, prefix);
  return {
    store,
    done: async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await store.close();
    },
  };
});

test('with REDIS_URL the app keeps the sign-in limits in Redis', async () => {
  const kind = TEST_DATABASES[0]!;
  const database = await kind.open();
  const webRoot = fakeWebRoot();
  const config = loadConfig({ WEB_ROOT: webRoot, DATA_DIR: path.join(webRoot, 'data'), LOG_LEVEL: 'silent', REDIS_URL: TEST_REDIS_URL });
  const app = await buildApp({ config, db: database.db, dialect: database.dialect }, { logger: false });
  const redis = await requireRedis();
  const email = `redis-${process.pid}-${Date.now()}@example.pt`;
  const key = `cellwise:limits:block:${limitKeys.loginAccount(email)}`;
  try {
    for (let i = 0; i < 5; i++) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'wrong-password' } });
      expect(res.statusCode).toBe(400);
    }
    expect(Number(await redis.get(key))).toBeGreaterThan(Date.now());
  } finally {
    const keys = await redis.keys(`cellwise:limits:*${email}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await app.close();
    await database.dispose();
  }
});

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
