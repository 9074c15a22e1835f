import type { Kysely } from 'kysely';
import { isSecureOrLoopback, type BiServerConfig } from '../config';
import { DASHBOARD_MESSAGES, type BiServer, type DashboardRecord, type DashboardUpdate } from 'contracts';
import type { Database } from '../db/schema';

/**
 * Dashboard records (docs/engines/monitoring.md#dashboards): stored, edited by Administrators, and checked against the BI servers
 * configured in the environment. A record names a server by id; which servers exist (and their secrets)
 * is the environment's business only.
 */

type Db = Kysely<Database>;

export const RECORD_MESSAGES = {
  ...DASHBOARD_MESSAGES,
  blankName: 'Name is required.',
  controlCharacters: 'Name must not contain control characters.',
  badUrl: 'The dashboard URL is not a valid URL.',
  insecureUrl: 'The dashboard URL must use https:// (http:// only for localhost).',
  credentialsInUrl: 'The dashboard URL must not carry a user name or password.',
  urlRequired: (server: string) => `A dashboard on BI server '${server}' needs the URL of the report it shows.`,
  foreignOrigin: (server: string, origin: string) => `The dashboard URL must be on ${origin}, the origin of BI server '${server}'.`,
  powerBiIds: 'A Power BI dashboard URL must name its report and workspace: <embed origin>/reportEmbed?reportId=<report GUID>&groupId=<workspace GUID>.',
  tableauView: 'A Tableau dashboard URL must point at a view (a path with /views/<workbook>/<view>).',
  tableauSite: (site: string) => `The Tableau view must be on site '${site}' (the URL holds /t/${site}/ or #/site/${site}/).`,
} as const;

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the browser may know of a configured server: never its credentials. */
export function publicServer(server: BiServerConfig): BiServer {
  return { id: server.id, type: server.type, name: server.name, origin: server.type === 'PowerBI' ? server.embedOrigin : server.origin };
}

/** The origin a server's report URLs (and so its frames) live on. */
export const embedOriginOf = (server: BiServerConfig): string => publicServer(server).origin;

/** The report and workspace a Power BI embed URL names, or null when it does not name both (as GUIDs). */
export function powerBiReportOf(url: string): { reportId: string; groupId: string } | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const reportId = parsed.searchParams.get('reportId') ?? '';
  const groupId = parsed.searchParams.get('groupId') ?? '';
  // Both become path segments of the GenerateToken call: only GUIDs get there.
  return GUID.test(reportId) && GUID.test(groupId) ? { reportId, groupId } : null;
}

/**
 * Why a record's URL cannot be embedded from `server` (null: it can). Without a server, only a URL that is
 * set is checked (https, no credentials); the native charts need none.
 */
export function urlProblem(url: string, type: DashboardRecord['type'], server: BiServerConfig | null): string | null {
  if (url === '') return server ? RECORD_MESSAGES.urlRequired(server.name) : null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return RECORD_MESSAGES.badUrl;
  }
  if (!isSecureOrLoopback(parsed)) return RECORD_MESSAGES.insecureUrl;
  if (parsed.username || parsed.password) return RECORD_MESSAGES.credentialsInUrl;
  if (!server) return null;
  const origin = embedOriginOf(server);
  if (parsed.origin !== origin) return RECORD_MESSAGES.foreignOrigin(server.name, origin);
  if (type === 'PowerBI') return powerBiReportOf(url) ? null : RECORD_MESSAGES.powerBiIds;
  // Tableau Server puts the view in the path (/t/<site>/views/…), the browser address bar in the fragment (#/site/<site>/views/…).
  const where = `${parsed.pathname}${parsed.hash}`;
  if (!/\/views\/[^/]+\/[^/]+/.test(where)) return RECORD_MESSAGES.tableauView;
  if (server.type === 'Tableau' && server.site !== null && !where.includes(`/t/${server.site}/`) && !where.includes(`/site/${server.site}/`)) {
    return RECORD_MESSAGES.tableauSite(server.site);
  }
  return null;
}

/** The configured server a record points at, when it exists and serves the record's type. */
export function serverOf(servers: readonly BiServerConfig[], record: Pick<DashboardRecord, 'type' | 'serverId'>): BiServerConfig | null {
  if (record.serverId === null) return null;
  const server = servers.find((s) => s.id === record.serverId);
  return server && server.type === record.type ? server : null;
}

/** Why an update cannot be saved, in the words the page shows (null: it can). */
export function updateProblem(update: DashboardUpdate, servers: readonly BiServerConfig[]): string | null {
  const name = update.name.trim();
  if (name === '') return RECORD_MESSAGES.blankName;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f]/.test(update.name)) return RECORD_MESSAGES.controlCharacters;
  let server: BiServerConfig | null = null;
  if (update.serverId !== null) {
    const named = servers.find((s) => s.id === update.serverId);
    if (!named) return RECORD_MESSAGES.unknownServer;
    if (named.type !== update.type) return RECORD_MESSAGES.serverTypeMismatch;
    server = named;
  }
  return urlProblem(update.url.trim(), update.type, server);
}

const recordOf = (row: { id: number; type: DashboardRecord['type']; name: string; url: string; server_id: string | null }): DashboardRecord => ({
  id: row.id,
  type: row.type,
  name: row.name,
  url: row.url,
  serverId: row.server_id,
});

export async function getDashboard(db: Db, id: number): Promise<DashboardRecord | null> {
  const row = await db.selectFrom('dashboards').select(['id', 'type', 'name', 'url', 'server_id']).where('id', '=', id).executeTakeFirst();
  return row ? recordOf(row) : null;
}

/** Saves a checked update (see updateProblem); null when no record has the id. */
export async function updateDashboard(db: Db, update: DashboardUpdate, userId: number, now: string): Promise<DashboardRecord | null> {
  const result = await db
    .updateTable('dashboards')
    .set({ type: update.type, name: update.name.trim(), url: update.url.trim(), server_id: update.serverId, updated_at: now, updated_by: userId })
    .where('id', '=', update.id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return null;
  return getDashboard(db, update.id);
}
