import type { PowerBiServerConfig, TableauServerConfig } from '../config';
import { powerBiReportOf } from './records';

/**
 * Embed tokens, minted for one `Dashboard/Inspect` call and never stored (docs/engines/monitoring.md#dashboards). The credentials
 * that mint them stay here: an answer carries the embed token and its expiry, never a client secret or
 * the Azure AD access token used on the way.
 */

export interface EmbedToken {
  token: string;
  /** ISO-8601 UTC. */
  expiresAt: string;
}

/** A BI server would not mint a token: answered as 502 with this message, which names the server and the HTTP status, never a secret. */
export class EmbedTokenError extends Error {
  readonly statusCode = 502;
  constructor(message: string) {
    super(message);
    this.name = 'EmbedTokenError';
  }
}

/** How long a call to a BI server may take before the page is told it failed. */
export const BI_REQUEST_TIMEOUT_MS = 15_000;

/**
 * Tableau Server's default: a trusted ticket must be redeemed within three minutes of being issued. The
 * page loads the view with it at once; redeemed, it opens the viz's own session and is spent.
 */
export const TABLEAU_TICKET_SECONDS = 3 * 60;

/**
 * What a ticket looks like: since Tableau Server 10.2 `Base64(UUIDv4):<24 random characters>`; older or
 * reconfigured servers answer a random string of 9 to 255 characters. Anything else (a login page, a
 * proxy's error page) is not put into a view URL.
 */
const PLAUSIBLE_TICKET = /^[A-Za-z0-9+/=_-]{9,255}(?::[A-Za-z0-9+/=_-]{9,255})?$/;

/** The scope of the Power BI REST API for a service principal (client credentials). */
export const POWERBI_SCOPE = 'https://analysis.windows.net/powerbi/api/.default';

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

async function call(what: string, url: string, init: RequestInit, timeoutMs: number): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const wait = timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`;
    const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${wait}` : 'connection failed';
    throw new EmbedTokenError(`${what} could not be reached (${reason}).`);
  }
}

async function jsonOf(what: string, response: Response): Promise<Record<string, unknown>> {
  try {
    const body: unknown = await response.json();
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // Reported below, without the body: it is not ours to echo.
  }
  throw new EmbedTokenError(`${what} answered something other than JSON (HTTP ${response.status}).`);
}

/**
 * A Power BI embed token for the record's report (app-owns-data): the service principal signs in to
 * Azure AD (client credentials), then asks the report's workspace for a View token (GenerateToken).
 */
export async function mintPowerBiToken(server: PowerBiServerConfig, reportUrl: string, timeoutMs = BI_REQUEST_TIMEOUT_MS): Promise<EmbedToken> {
  const label = `Power BI server '${server.name}'`;
  const report = powerBiReportOf(reportUrl);
  if (!report) throw new EmbedTokenError(`${label} cannot embed this dashboard: its URL names no reportId and groupId. An Administrator must correct it.`);

  const signIn = await call(
    `${label} (sign-in)`,
    `${server.authorityUrl}/${encodeURIComponent(server.tenantId)}/oauth2/v2.0/token`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: server.clientId, client_secret: server.clientSecret, scope: POWERBI_SCOPE }),
    },
    timeoutMs,
  );
  if (!signIn.ok) throw new EmbedTokenError(`${label} refused the service principal's sign-in (HTTP ${signIn.status}).`);
  const accessToken = (await jsonOf(`${label} (sign-in)`, signIn)).access_token;
  if (typeof accessToken !== 'string' || accessToken === '') throw new EmbedTokenError(`${label} signed in without an access token (HTTP ${signIn.status}).`);

  const generate = await call(
    label,
    `${server.apiUrl}/v1.0/myorg/groups/${report.groupId}/reports/${report.reportId}/GenerateToken`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ accessLevel: 'View' }),
    },
    timeoutMs,
  );
  if (!generate.ok) throw new EmbedTokenError(`${label} refused to generate an embed token (HTTP ${generate.status}).`);
  const body = await jsonOf(label, generate);
  const expires = typeof body.expiration === 'string' ? Date.parse(body.expiration) : Number.NaN;
  if (typeof body.token !== 'string' || body.token === '' || Number.isNaN(expires)) {
    throw new EmbedTokenError(`${label} answered GenerateToken without a token and its expiration (HTTP ${generate.status}).`);
  }
  return { token: body.token, expiresAt: iso(expires) };
}

/**
 * A Tableau trusted ticket for `user` (trusted authentication): the console server POSTs the user, and the
 * site when the view is not on the default one, to `<ticketUrl>/trusted`; Tableau answers the ticket, or
 * `-1` when it will not issue one (this host is not trusted, the user is unknown or unlicensed on that
 * site). A ticket is redeemed once, so every Inspect call gets its own.
 */
export async function mintTableauTicket(server: TableauServerConfig, user: string, nowMs: number, timeoutMs = BI_REQUEST_TIMEOUT_MS): Promise<EmbedToken> {
  const label = `Tableau server '${server.name}'`;
  const form = new URLSearchParams({ username: user });
  if (server.site !== null) form.set('target_site', server.site);
  const response = await call(
    label,
    `${server.ticketUrl}/trusted`,
    { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/plain' }, body: form },
    timeoutMs,
  );
  if (!response.ok) throw new EmbedTokenError(`${label} refused to issue a trusted ticket (HTTP ${response.status}).`);
  let body: string;
  try {
    body = (await response.text()).trim();
  } catch {
    throw new EmbedTokenError(`${label} could not be reached (connection failed).`);
  }
  if (body === '-1') {
    const site = server.site === null ? 'the default site' : `site '${server.site}'`;
    throw new EmbedTokenError(
      `${label} refused to issue a trusted ticket (answered -1): it must list this console server's address as a trusted host, and the user must be a licensed Tableau user on ${site}.`,
    );
  }
  // Reported without the body: it is not ours to echo.
  if (!PLAUSIBLE_TICKET.test(body))
    throw new EmbedTokenError(`${label} answered the ticket request with something other than a trusted ticket (HTTP ${response.status}).`);
  return { token: body, expiresAt: iso(nowMs + TABLEAU_TICKET_SECONDS * 1000) };
}
