import type { Redis } from 'ioredis';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { isoTime } from './clock';

/** DESIGN §4: five failures in a row lock the account for 15 minutes. */
export const MAX_LOGIN_FAILURES = 5;
export const LOCKOUT_MS = 15 * 60 * 1000;

/**
 * Login throttling state, per lower-cased e-mail (whether or not an account has it, so a lockout
 * reveals nothing). In the database by default; in Redis when REDIS_URL is set, so every API
 * instance sees the same counters and nothing accumulates in a table.
 */
export interface LoginThrottle {
  /** When the lock on this e-mail ends (ms), or null when it is not locked at `nowMs`. */
  lockedUntil(email: string, nowMs: number): Promise<number | null>;
  /** Counts a failure; answers the end of the lock when this failure locked the e-mail, else null. */
  recordFailure(email: string, nowMs: number): Promise<number | null>;
  /** A success: the count starts again. */
  reset(email: string): Promise<void>;
  close(): Promise<void>;
}

export class DatabaseLoginThrottle implements LoginThrottle {
  constructor(private readonly db: Kysely<Database>) {}

  async lockedUntil(email: string, nowMs: number): Promise<number | null> {
    const row = await this.db.selectFrom('login_attempts').select('locked_until').where('email', '=', email).executeTakeFirst();
    const until = row?.locked_until ? Date.parse(row.locked_until) : NaN;
    return until > nowMs ? until : null;
  }

  async recordFailure(email: string, nowMs: number): Promise<number | null> {
    // One statement, so concurrent failures are all counted.
    const row = await this.db
      .insertInto('login_attempts')
      .values({ email, failures: 1, locked_until: null })
      .onConflict((oc) => oc.column('email').doUpdateSet({ failures: sql<number>`login_attempts.failures + 1` }))
      .returning('failures')
      .executeTakeFirstOrThrow();
    if (row.failures < MAX_LOGIN_FAILURES) return null;
    const until = nowMs + LOCKOUT_MS;
    // The count restarts, so after the lock a user again has five tries.
    await this.db
      .updateTable('login_attempts')
      .set({ failures: 0, locked_until: isoTime(until) })
      .where('email', '=', email)
      .execute();
    return until;
  }

  async reset(email: string): Promise<void> {
    await this.db.deleteFrom('login_attempts').where('email', '=', email).execute();
  }

  async close(): Promise<void> {}
}

/** Failures in a row are remembered this long in Redis; a day without a try starts the count again. */
const REDIS_FAILURE_MEMORY_SECONDS = 24 * 60 * 60;

export class RedisLoginThrottle implements LoginThrottle {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'cellwise:login:',
  ) {}

  private keys(email: string) {
    return { failures: `${this.prefix}failures:${email}`, lock: `${this.prefix}lock:${email}` };
  }

  async lockedUntil(email: string, nowMs: number): Promise<number | null> {
    // The key holds the end of the lock, so an injected clock is honoured; its TTL only cleans up.
    const until = Number(await this.redis.get(this.keys(email).lock));
    return until > nowMs ? until : null;
  }

  async recordFailure(email: string, nowMs: number): Promise<number | null> {
    const keys = this.keys(email);
    const results = await this.redis.multi().incr(keys.failures).expire(keys.failures, REDIS_FAILURE_MEMORY_SECONDS).exec();
    const failures = Number(results?.[0]?.[1]);
    if (!(failures >= MAX_LOGIN_FAILURES)) return null;
    const until = nowMs + LOCKOUT_MS;
    await this.redis.multi().set(keys.lock, String(until), 'PX', LOCKOUT_MS).del(keys.failures).exec();
    return until;
  }

  async reset(email: string): Promise<void> {
    const keys = this.keys(email);
    await this.redis.del(keys.failures, keys.lock);
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}

/** The words of the 423 answer; the time is rounded up to the minute, so trying at that minute works. */
export function lockedMessage(untilMs: number): string {
  const minute = new Date(Math.ceil(untilMs / 60_000) * 60_000);
  const hh = String(minute.getUTCHours()).padStart(2, '0');
  const mm = String(minute.getUTCMinutes()).padStart(2, '0');
  return `Too many failed attempts. The account is locked until ${hh}:${mm} (UTC).`;
}
