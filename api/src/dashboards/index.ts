import type { Kysely } from 'kysely';
import type { BiServerConfig } from '../config';
import type { DashboardRecord, DashboardView } from 'contracts';
import type { Database } from '../db/schema';
import { serverOf, urlProblem } from './records';
import { EmbedTokenError, mintPowerBiToken, mintTableauTicket } from './tokens';

export * from './records';
export * from './rollout';
export * from './site-map';
export * from './tokens';

export interface InspectContext {
  db: Kysely<Database>;
  servers: readonly BiServerConfig[];
  nowMs: number;
  /** The caller: a Tableau ticket is issued for this user unless TABLEAU_USER names one for everybody. */
  userId: number;
}

/**
 * The record as `Dashboard/Inspect` answers it: with a token minted for this call when its server is
 * configured, or `native` (no token) when it names none, names one the environment no longer has, or one
 * of another type. A record that names a server but cannot be embedded from it (the environment changed
 * under it) is the BI side failing, so a 502 that says why.
 */
export async function inspectDashboard(record: DashboardRecord, context: InspectContext): Promise<DashboardView> {
  const server = serverOf(context.servers, record);
  if (!server) return { ...record, accessToken: null, expiresAt: null, native: true };
  const problem = urlProblem(record.url, record.type, server);
  if (problem) throw new EmbedTokenError(`${record.name} cannot be embedded from BI server '${server.name}': ${problem} An Administrator must correct it.`);
  let token;
  if (server.type === 'PowerBI') {
    token = await mintPowerBiToken(server, record.url);
  } else {
    const user = server.user ?? (await context.db.selectFrom('users').select('email').where('id', '=', context.userId).executeTakeFirstOrThrow()).email;
    token = await mintTableauTicket(server, user, context.nowMs);
  }
  return { ...record, accessToken: token.token, expiresAt: token.expiresAt, native: false };
}
