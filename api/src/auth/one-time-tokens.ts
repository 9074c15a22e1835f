import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, OneTimeTokenPurpose } from '../db/schema';
import { isoTime } from './clock';

/** docs/architecture.md#accounts-sessions-and-abuse-limits: a confirmation link works for 7 days, a recovery link for 1 hour. */
export const ONE_TIME_TOKEN_LIFETIME_MS: Record<OneTimeTokenPurpose, number> = {
  confirm: 7 * 24 * 60 * 60 * 1000,
  recover: 60 * 60 * 1000,
};

export function hashOneTimeToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * A new single-use token for the link in a mail. Only its hash is stored; any earlier token of the
 * same purpose for the user stops working, so only the latest mail's link is good.
 */
export async function issueOneTimeToken(db: Kysely<Database>, userId: number, purpose: OneTimeTokenPurpose, nowMs: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('one_time_tokens').where('user_id', '=', userId).where('purpose', '=', purpose).execute();
    await trx
      .insertInto('one_time_tokens')
      .values({
        user_id: userId,
        purpose,
        token_hash: hashOneTimeToken(token),
        expires_at: isoTime(nowMs + ONE_TIME_TOKEN_LIFETIME_MS[purpose]),
        used_at: null,
        created_at: isoTime(nowMs),
      })
      .execute();
  });
  return token;
}

type Executor = Pick<Kysely<Database>, 'selectFrom' | 'updateTable'>;

/** The stored token's id when `token` is a live (unused, unexpired) token of this user and purpose. */
export async function findOneTimeToken(db: Executor, userId: number, purpose: OneTimeTokenPurpose, token: string, nowMs: number): Promise<number | null> {
  const row = await db
    .selectFrom('one_time_tokens')
    .select(['id', 'expires_at', 'used_at'])
    .where('token_hash', '=', hashOneTimeToken(token))
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .executeTakeFirst();
  if (!row || row.used_at !== null || row.expires_at <= isoTime(nowMs)) return null;
  return row.id;
}

/** Marks the token used; false when someone else used it first (two tabs, a replayed request). */
export async function markOneTimeTokenUsed(db: Executor, id: number, nowMs: number): Promise<boolean> {
  const result = await db
    .updateTable('one_time_tokens')
    .set({ used_at: isoTime(nowMs) })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
