import type { Kysely } from 'kysely';
import { can, type Principal } from 'shared-auth/policy';
import type { Database } from '../db/schema';
import { findAccountById, findSessionAccount, projectNamesOf } from './accounts';
import { epochSeconds, type Clock } from './clock';
import { DeviceCookies } from './device-cookies';
import { signSessionToken, verifySessionToken } from './jwt';
import type { Limiter } from './limits';

/** Who is calling: `request.session` on every request (null when no valid token came with it). */
export interface Session {
  userId: number;
  principal: Principal;
  /**
   * The operator whose engineering data this session reads and writes (docs/tenancy.md): the user's
   * current operator while they still belong to it (an Administrator belongs to every operator), else
   * none — removing a user from an operator ends their view of its data at their next request.
   */
  dataOperatorId: number | null;
}

/** Everything the access hook and the account routes share: the clock, the signing secret, the abuse limits, the device cookies. */
export class AuthRuntime {
  readonly devices: DeviceCookies;

  constructor(
    readonly db: Kysely<Database>,
    private readonly secret: string,
    readonly limits: Limiter,
    readonly clock: Clock,
  ) {
    this.devices = new DeviceCookies(secret);
  }

  /**
   * The session of a token: signature and expiry check out, the user exists and is not deactivated,
   * and the token is not older than the user's last password change. Role, operator and projects are
   * read afresh, so a change made by an administrator applies to tokens already handed out.
   */
  async authenticate(token: string): Promise<Session | null> {
    const claims = verifySessionToken(token, this.secret, epochSeconds(this.clock()));
    if (!claims) return null;
    const found = await findSessionAccount(this.db, claims.userId);
    if (!found) return null;
    const { account } = found;
    if (account.deactivated || claims.iat < account.tokensValidAfter) return null;
    const principal: Principal = {
      authenticated: true,
      role: account.role,
      operatorId: account.operatorId,
      projects: await projectNamesOf(this.db, account.id),
    };
    return { userId: account.id, principal, dataOperatorId: dataOperatorOf(principal, found) };
  }

  /** A session token for the user as they are now; null when the user does not exist. */
  async issueToken(userId: number): Promise<string | null> {
    const account = await findAccountById(this.db, userId);
    if (!account) return null;
    // Never issued before tokens_valid_after: a token made right after a password change must work.
    const iat = Math.max(epochSeconds(this.clock()), account.tokensValidAfter);
    return signSessionToken(
      { userId: account.id, role: account.role, operatorId: account.operatorId, projects: await projectNamesOf(this.db, account.id) },
      this.secret,
      iat,
    );
  }

  /** The `tokens_valid_after` that refuses every token issued until now (iat is in whole seconds). */
  revocationPoint(): number {
    return epochSeconds(this.clock()) + 1;
  }
}

/** The current operator while the user may read it: a member, or an Administrator and the operator exists. */
function dataOperatorOf(principal: Principal, found: { member: boolean; operatorExists: boolean }): number | null {
  if (principal.operatorId === null) return null;
  if (can(principal, 'canAdminister')) return found.operatorExists ? principal.operatorId : null;
  return found.member ? principal.operatorId : null;
}

/** Ends every session of a user (password change, deactivation, role change). */
export async function revokeSessions(db: Kysely<Database>, userId: number, nowMs: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ tokens_valid_after: epochSeconds(nowMs) + 1 })
    .where('id', '=', userId)
    .execute();
}
