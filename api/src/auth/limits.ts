import { Redis } from 'ioredis';

/**
 * Abuse limits on the public account calls (docs/architecture.md#accounts-sessions-and-abuse-limits). Counters live in memory for the embedded
 * console and in Redis when REDIS_URL is set, so every API instance counts the same attempts.
 *
 * Nothing here locks an account for everyone: a run of wrong passwords blocks the address that sent
 * them (for that account), and the account itself only gets short, growing delays that apply to
 * untrusted clients alone — a browser holding the account's device cookie (device-cookies.ts) is judged
 * by its own failures only, so nobody can keep a colleague, or the Administrator, out by typing their
 * email, however many addresses they type it from.
 */
export interface CounterStore {
  /** Counts one hit in a window that starts at the key's first hit; answers the count so far. */
  hit(key: string, windowMs: number, nowMs: number): Promise<number>;
  /** When the block on the key ends (ms), or null when it is not blocked at `nowMs`. */
  blockedUntil(key: string, nowMs: number): Promise<number | null>;
  block(key: string, untilMs: number, nowMs: number): Promise<void>;
  /** Forgets the keys' counts and blocks (a successful sign-in). */
  reset(...keys: string[]): Promise<void>;
  close(): Promise<void>;
}

const MINUTE = 60_000;

export interface WindowRule {
  /** Hits allowed in the window: the hit that reaches it still passes, and blocks the ones after it. */
  limit: number;
  windowMs: number;
  /** How long the key is refused once over the limit (default: one window). */
  blockMs?: number;
}

export const LIMITS = {
  /** Failed sign-ins from one address, whatever the accounts: guessing across many accounts. */
  loginFailuresPerAddress: { limit: 30, windowMs: 15 * MINUTE },
  /** Failed sign-ins for one account from one address: guessing one password; blocks only that address. */
  loginFailuresPerAccountAndAddress: { limit: 5, windowMs: 15 * MINUTE, blockMs: 15 * MINUTE },
  /** Failed sign-ins through one device cookie (a browser that signed in before): blocks only that cookie. */
  loginFailuresPerDevice: { limit: 5, windowMs: 15 * MINUTE, blockMs: 15 * MINUTE },
  /** Recovery mails asked from one address, and for one email (whether or not it has an account). */
  recoverPerAddress: { limit: 5, windowMs: 15 * MINUTE },
  recoverPerAccount: { limit: 3, windowMs: 60 * MINUTE },
  /** Passwords chosen through mailed links (registration and recovery) from one address, and wrong links per user. */
  linkPerAddress: { limit: 10, windowMs: 15 * MINUTE },
  linkFailuresPerAccount: { limit: 5, windowMs: 60 * MINUTE },
  /** Wrong old passwords on ChangePassword, per signed-in user: a stolen session must not become a guessing oracle. */
  changePasswordFailuresPerUser: { limit: 5, windowMs: 15 * MINUTE },
  /** Site reports mailed (Monitoring/GetSiteReportEmail) per user: each builds a workbook and sends a mail. */
  siteReportMailsPerUser: { limit: 10, windowMs: 15 * MINUTE },
} as const satisfies Record<string, WindowRule>;

/**
 * Failed sign-ins for one account from every untrusted client: after `after` failures each further one delays
 * the next try, doubling from `firstMs` up to `maxMs` — slow enough to stop a distributed guesser,
 * short enough that the account's owner is never locked out.
 */
export const ACCOUNT_DELAY = { after: 5, firstMs: 1_000, maxMs: 30_000, windowMs: 15 * MINUTE } as const;

export function accountDelayMs(failures: number): number {
  if (failures < ACCOUNT_DELAY.after) return 0;
  return Math.min(ACCOUNT_DELAY.maxMs, ACCOUNT_DELAY.firstMs * 2 ** (failures - ACCOUNT_DELAY.after));
}

/** The 429 answer's words, with the wait rounded up to what a person reads. */
export function tooManyMessage(retryAfterMs: number): string {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const wait = seconds < 60 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${Math.ceil(seconds / 60)} minute${Math.ceil(seconds / 60) === 1 ? '' : 's'}`;
  return `Too many attempts. Try again in ${wait}.`;
}

/** Keys name what they count; emails are lower-cased by the callers, addresses are Fastify's `request.ip`. */
export const limitKeys = {
  loginAddress: (ip: string) => `login:ip:${ip}`,
  loginAccountAddress: (email: string, ip: string) => `login:pair:${email}|${ip}`,
  loginAccount: (email: string) => `login:account:${email}`,
  loginDevice: (nonce: string) => `login:device:${nonce}`,
  recoverAddress: (ip: string) => `recover:ip:${ip}`,
  recoverAccount: (email: string) => `recover:account:${email}`,
  linkAddress: (ip: string) => `link:ip:${ip}`,
  linkAccount: (userId: number) => `link:user:${userId}`,
  changePassword: (userId: number) => `password:user:${userId}`,
  siteReportMail: (userId: number) => `mail:site-report:user:${userId}`,
};

export class Limiter {
  constructor(readonly store: CounterStore) {}

  /** How long until the first of these keys stops being blocked, or null when none is. */
  async retryAfter(keys: readonly string[], nowMs: number): Promise<number | null> {
    const ends = await Promise.all(keys.map((key) => this.store.blockedUntil(key, nowMs)));
    const latest = Math.max(...ends.map((end) => end ?? 0));
    return latest > nowMs ? latest - nowMs : null;
  }

  /** Counts one hit; answers the block's length when this hit reached the limit (later hits are then refused). */
  async count(key: string, rule: WindowRule, nowMs: number): Promise<number | null> {
    const hits = await this.store.hit(key, rule.windowMs, nowMs);
    if (hits < rule.limit) return null;
    const blockMs = rule.blockMs ?? rule.windowMs;
    await this.store.block(key, nowMs + blockMs, nowMs);
    return blockMs;
  }

  /** Counts a failed sign-in for the account from every address, and sets its growing delay. */
  async countAccountFailure(email: string, nowMs: number): Promise<void> {
    const key = limitKeys.loginAccount(email);
    const delay = accountDelayMs(await this.store.hit(key, ACCOUNT_DELAY.windowMs, nowMs));
    if (delay > 0) await this.store.block(key, nowMs + delay, nowMs);
  }
}

interface MemoryEntry {
  hits: number;
  windowEnds: number;
  blockedUntil: number;
}

/** One process's counters. Old entries are swept as new ones arrive, so memory stays bounded by recent traffic. */
export class MemoryCounterStore implements CounterStore {
  private readonly entries = new Map<string, MemoryEntry>();
  private lastSweep = 0;

  private sweep(nowMs: number): void {
    if (nowMs - this.lastSweep < MINUTE) return;
    this.lastSweep = nowMs;
    for (const [key, entry] of this.entries) if (entry.windowEnds <= nowMs && entry.blockedUntil <= nowMs) this.entries.delete(key);
  }

  async hit(key: string, windowMs: number, nowMs: number): Promise<number> {
    this.sweep(nowMs);
    const entry = this.entries.get(key);
    if (!entry || entry.windowEnds <= nowMs) {
      this.entries.set(key, { hits: 1, windowEnds: nowMs + windowMs, blockedUntil: entry?.blockedUntil ?? 0 });
      return 1;
    }
    entry.hits += 1;
    return entry.hits;
  }

  async blockedUntil(key: string, nowMs: number): Promise<number | null> {
    const until = this.entries.get(key)?.blockedUntil ?? 0;
    return until > nowMs ? until : null;
  }

  async block(key: string, untilMs: number, nowMs: number): Promise<void> {
    const entry = this.entries.get(key);
    if (entry) entry.blockedUntil = Math.max(entry.blockedUntil, untilMs);
    else this.entries.set(key, { hits: 0, windowEnds: nowMs, blockedUntil: untilMs });
  }

  async reset(...keys: string[]): Promise<void> {
    for (const key of keys) this.entries.delete(key);
  }

  async close(): Promise<void> {
    this.entries.clear();
  }
}

/**
 * Shared counters. A window is a key that expires (INCR, then PEXPIRE on the first hit, in one
 * transaction); a block is a key holding its end, so an injected clock is honoured and its TTL only
 * cleans up.
 */
export class RedisCounterStore implements CounterStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'cellwise:limits:',
  ) {}

  async hit(key: string, windowMs: number, _nowMs: number): Promise<number> {
    const name = `${this.prefix}hits:${key}`;
    const results = await this.redis.multi().incr(name).pexpire(name, windowMs, 'NX').exec();
    return Number(results?.[0]?.[1] ?? 0);
  }

  async blockedUntil(key: string, nowMs: number): Promise<number | null> {
    const until = Number(await this.redis.get(`${this.prefix}block:${key}`));
    return until > nowMs ? until : null;
  }

  async block(key: string, untilMs: number, nowMs: number): Promise<void> {
    const name = `${this.prefix}block:${key}`;
    const current = Number(await this.redis.get(name));
    if (current >= untilMs) return;
    await this.redis.set(name, String(untilMs), 'PX', Math.max(1, untilMs - nowMs));
  }

  async reset(...keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.redis.del(...keys.flatMap((key) => [`${this.prefix}hits:${key}`, `${this.prefix}block:${key}`]));
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}

/** `onConnectionError`: Redis being away is reported here (the limited calls then fail with a 500 until it is back). */
export function createCounterStore(config: { redisUrl: string | null }, onConnectionError: (error: Error) => void = () => undefined): CounterStore {
  if (!config.redisUrl) return new MemoryCounterStore();
  const redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
  redis.on('error', onConnectionError);
  return new RedisCounterStore(redis);
}
