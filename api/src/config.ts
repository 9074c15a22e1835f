import { isIP } from 'node:net';
import path from 'node:path';
import { passwordProblem } from './auth/password-rules';
import { compileSiteRule } from './domain/network/site-rule';

/** Repository root: DATA_DIR and the built front-ends are found relative to it, whatever the working directory. */
export const REPO_ROOT = path.resolve(__dirname, '../..');

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  redisUrl: string | null;
  smtpUrl: string | null;
  jwtSecret: string | null;
  /**
   * Origin the console is reached at, for links in mails. Without it (allowed only while mail goes to
   * the outbox) links use the origin this process listens on — never the request's Host header,
   * which the client chooses.
   */
  publicUrl: string | null;
  /** Finished jobs older than this many days are removed (with their files) by the retention job. */
  jobRetentionDays: number;
  /** Default site rule of network imports (docs/engines/network.md#the-site-rule): a regular expression with a group `site`; null = the built-in rule. */
  siteRule: string | null;
  /** Fastify's trustProxy: false, a hop count, or the proxies' addresses; decides what `request.ip` is. */
  trustProxy: boolean | number | string;
  /** HSTS_MAX_AGE: seconds of `Strict-Transport-Security` sent on answers over https; null = none sent. */
  hstsMaxAge: number | null;
  /**
   * Who may read `/api/metrics` (Prometheus): METRICS_ALLOW's addresses and subnets (as `request.ip`
   * sees them, so behind TRUST_PROXY the client's), and whoever sends METRICS_TOKEN as a bearer token.
   * Neither set: the endpoint does not exist.
   */
  metrics: { allow: string[]; token: string | null } | null;
  adminEmail: string;
  adminPassword: string;
  demoData: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Where the built shell and remotes live; each remote may be overridden by REMOTE_<NAME>_URL. */
  webRoot: string;
  remoteUrls: Record<string, string>;
  /** BI servers that mint embed tokens for the dashboards (docs/engines/monitoring.md#dashboards); their secrets never leave the server. */
  biServers: BiServerConfig[];
  /** Tile URL template of the site map (Leaflet placeholders {s} {z} {x} {y}). */
  mapTileUrl: string;
}

/** A Power BI service principal (app-owns-data embedding). */
export interface PowerBiServerConfig {
  id: 'powerbi';
  type: 'PowerBI';
  name: string;
  tenantId: string;
  clientId: string;
  clientSecret: string;
  /** Azure AD authority, no trailing slash (the token endpoint is `<authority>/<tenant>/oauth2/v2.0/token`). */
  authorityUrl: string;
  /** Power BI REST API base, no trailing slash. */
  apiUrl: string;
  /** Origin of the embed pages (report URLs), which the console's CSP lets frame. */
  embedOrigin: string;
}

/**
 * A Tableau Server with trusted authentication: per embed the console asks it for a trusted ticket
 * (POST `<ticketUrl>/trusted`), which the view's URL then carries. No secret is involved: Tableau issues
 * tickets only to the hosts an administrator listed as trusted (`tsm authentication trusted
 * configure -th`), so that list, and the console's address on it, is what protects the views.
 */
export interface TableauServerConfig {
  id: 'tableau';
  type: 'Tableau';
  name: string;
  /** TABLEAU_URL as given, no trailing slash: where the browser loads the views from. */
  url: string;
  origin: string;
  /** Site content URL (a non-default site), or null for the default site. */
  site: string | null;
  /** TABLEAU_TICKET_URL (default TABLEAU_URL), no trailing slash: tickets are asked for at `<ticketUrl>/trusted`. */
  ticketUrl: string;
  /** The Tableau user every ticket names; null: the console user's email. */
  user: string | null;
}

export type BiServerConfig = PowerBiServerConfig | TableauServerConfig;

export const DEFAULT_MAP_TILE_URL = 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png';
export const POWERBI_DEFAULTS = {
  name: 'Power BI',
  authorityUrl: 'https://login.microsoftonline.com',
  apiUrl: 'https://api.powerbi.com',
  embedOrigin: 'https://app.powerbi.com',
} as const;
export const TABLEAU_DEFAULT_NAME = 'Tableau';

export const DEFAULT_ADMIN_EMAIL = 'admin@cellwise.local';
export const DEFAULT_ADMIN_PASSWORD = 'Cellwise-Admin-1';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MAX_HSTS_MAX_AGE = 2 * 365 * 24 * 3600;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Names of the remotes as deployed: folder `mfe-<name>`, override variable `REMOTE_<NAME>_URL`. */
export const REMOTE_NAMES = ['tracking', 'planning-validation', 'monitoring', 'management'] as const;

function urlWithScheme(name: string, value: string | undefined, schemes: string[], problems: string[]): string | null {
  if (value === undefined || value === '') return null;
  try {
    const url = new URL(value);
    if (!schemes.includes(url.protocol.replace(/:$/, ''))) {
      problems.push(`${name} must use ${schemes.map((s) => `${s}://`).join(' or ')} (got ${url.protocol}//)`);
      return null;
    }
    return value;
  } catch {
    problems.push(`${name} is not a valid URL`);
    return null;
  }
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https, or http on a loopback host (a local fake server in tests, a proxy on the same machine). */
export function isSecureOrLoopback(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}

/** A BI endpoint: https (http only on a loopback host), without credentials, query or fragment; answered without trailing slashes. */
function biUrl(name: string, value: string, problems: string[], originOnly = false): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problems.push(`${name} is not a valid URL`);
    return null;
  }
  if (!isSecureOrLoopback(url)) {
    problems.push(`${name} must use https:// (http:// only for localhost) (got ${url.protocol}//)`);
    return null;
  }
  if (url.username || url.password || url.search || url.hash) {
    problems.push(`${name} must not carry credentials, a query or a fragment`);
    return null;
  }
  if (originOnly && url.pathname !== '/') {
    problems.push(`${name} must be an origin (scheme, host and port only), e.g. ${POWERBI_DEFAULTS.embedOrigin}`);
    return null;
  }
  return originOnly ? url.origin : `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * One BI server's variables: all required ones or none. Any of its variables set without the others is a
 * half-made configuration, reported with the names still missing.
 */
function biGroup(env: NodeJS.ProcessEnv, label: string, required: readonly string[], optional: readonly string[], problems: string[]): boolean {
  const set = (name: string) => (env[name] ?? '').trim() !== '';
  if (![...required, ...optional].some(set)) return false;
  const missing = required.filter((name) => !set(name));
  if (missing.length === 0) return true;
  if (required.length === 1) {
    const given = optional.filter(set);
    problems.push(`${label} is partly configured: set ${required[0]} too (${given.join(', ')} ${given.length === 1 ? 'is' : 'are'} read only with it)`);
  } else {
    problems.push(`${label} is partly configured: set ${missing.join(', ')} too (${required.join(', ')} go together)`);
  }
  return false;
}

function powerBiServer(env: NodeJS.ProcessEnv, problems: string[]): PowerBiServerConfig | null {
  const required = ['POWERBI_TENANT_ID', 'POWERBI_CLIENT_ID', 'POWERBI_CLIENT_SECRET'] as const;
  const optional = ['POWERBI_NAME', 'POWERBI_AUTHORITY_URL', 'POWERBI_API_URL', 'POWERBI_EMBED_ORIGIN'] as const;
  if (!biGroup(env, 'Power BI', required, optional, problems)) return null;
  const before = problems.length;
  const tenantId = env.POWERBI_TENANT_ID!.trim();
  // It becomes a path segment of the token endpoint.
  if (!/^[A-Za-z0-9.-]{1,100}$/.test(tenantId)) problems.push('POWERBI_TENANT_ID must be a tenant id (GUID) or domain name');
  const authorityUrl = biUrl('POWERBI_AUTHORITY_URL', env.POWERBI_AUTHORITY_URL?.trim() || POWERBI_DEFAULTS.authorityUrl, problems);
  const apiUrl = biUrl('POWERBI_API_URL', env.POWERBI_API_URL?.trim() || POWERBI_DEFAULTS.apiUrl, problems);
  const embedOrigin = biUrl('POWERBI_EMBED_ORIGIN', env.POWERBI_EMBED_ORIGIN?.trim() || POWERBI_DEFAULTS.embedOrigin, problems, true);
  if (problems.length > before || !authorityUrl || !apiUrl || !embedOrigin) return null;
  return {
    id: 'powerbi',
    type: 'PowerBI',
    name: env.POWERBI_NAME?.trim() || POWERBI_DEFAULTS.name,
    tenantId,
    clientId: env.POWERBI_CLIENT_ID!.trim(),
    clientSecret: env.POWERBI_CLIENT_SECRET!,
    authorityUrl,
    apiUrl,
    embedOrigin,
  };
}

/**
 * Variables of the connected-app tokens the console once minted: Tableau accepts those only through the
 * Embedding API v3, not in the v2 API's trusted view URL the page loads. A deployment still setting them
 * expects a secret to be used, so it is stopped with what replaced them rather than run half-configured.
 */
const TABLEAU_REMOVED = ['TABLEAU_CLIENT_ID', 'TABLEAU_SECRET_ID', 'TABLEAU_SECRET_VALUE'] as const;

function tableauServer(env: NodeJS.ProcessEnv, problems: string[]): TableauServerConfig | null {
  const removed = TABLEAU_REMOVED.filter((name) => (env[name] ?? '').trim() !== '');
  if (removed.length > 0) {
    problems.push(
      `${removed.join(', ')} ${removed.length === 1 ? 'is' : 'are'} no longer read: Tableau embeds use trusted tickets, which need no secret. ` +
        `Remove ${removed.length === 1 ? 'it' : 'them'}, set TABLEAU_URL (and TABLEAU_TICKET_URL if the console reaches Tableau Server at another address), ` +
        "and add the console server's address to Tableau Server's trusted hosts",
    );
  }
  const required = ['TABLEAU_URL'] as const;
  const optional = ['TABLEAU_SITE', 'TABLEAU_NAME', 'TABLEAU_USER', 'TABLEAU_TICKET_URL'] as const;
  if (!biGroup(env, 'Tableau', required, optional, problems)) return null;
  const before = problems.length;
  const url = biUrl('TABLEAU_URL', env.TABLEAU_URL!.trim(), problems);
  const ticketUrl = env.TABLEAU_TICKET_URL?.trim() ? biUrl('TABLEAU_TICKET_URL', env.TABLEAU_TICKET_URL.trim(), problems) : url;
  const site = env.TABLEAU_SITE?.trim() || null;
  if (site !== null && !/^[A-Za-z0-9_-]{1,100}$/.test(site))
    problems.push(`TABLEAU_SITE must be a site's content URL (letters, digits, - and _) (got "${site}")`);
  if (problems.length > before || !url || !ticketUrl) return null;
  return {
    id: 'tableau',
    type: 'Tableau',
    name: env.TABLEAU_NAME?.trim() || TABLEAU_DEFAULT_NAME,
    url,
    origin: new URL(url).origin,
    site,
    ticketUrl,
    user: env.TABLEAU_USER?.trim() || null,
  };
}

/**
 * MAP_TILE_URL: an http(s) template with {z}, {x} and {y}; `{s}` (Leaflet's subdomains) only in the
 * host's first label, so the CSP can name the tile hosts as one wildcard source.
 */
function mapTileUrl(value: string | undefined, problems: string[]): string {
  const template = value?.trim() || DEFAULT_MAP_TILE_URL;
  let url: URL;
  try {
    url = new URL(template);
  } catch {
    problems.push('MAP_TILE_URL is not a valid URL');
    return DEFAULT_MAP_TILE_URL;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    problems.push(`MAP_TILE_URL must use http:// or https:// (got ${url.protocol}//)`);
    return DEFAULT_MAP_TILE_URL;
  }
  const [first = '', ...rest] = url.hostname.split('.');
  if (/[{}]/.test(rest.join('.')) || /[{}]/.test(first.replace('{s}', ''))) {
    problems.push('MAP_TILE_URL may hold a placeholder in its host only as {s} in the first label (e.g. https://{s}.tile.openstreetmap.org/…)');
    return DEFAULT_MAP_TILE_URL;
  }
  const missing = ['{z}', '{x}', '{y}'].filter((p) => !template.includes(p) && !(p === '{y}' && template.includes('{-y}')));
  if (missing.length > 0) {
    problems.push(`MAP_TILE_URL must hold ${missing.join(', ')} (a tile template such as ${DEFAULT_MAP_TILE_URL})`);
    return DEFAULT_MAP_TILE_URL;
  }
  return template;
}

/** One METRICS_ALLOW entry: an IPv4 or IPv6 address, or a subnet of one (`10.0.0.0/8`, `fd00::/8`). */
function allowEntryProblem(entry: string): string | null {
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return `"${entry}" is not an address or subnet`;
  if (prefix !== undefined && (!/^\d{1,3}$/.test(prefix) || Number(prefix) > (family === 4 ? 32 : 128))) return `"${entry}" has no valid prefix length`;
  return null;
}

function metricsAccess(env: NodeJS.ProcessEnv, problems: string[]): Config['metrics'] {
  const allow = (env.METRICS_ALLOW ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of allow) {
    const problem = allowEntryProblem(entry);
    if (problem) problems.push(`METRICS_ALLOW: ${problem} (a comma-separated list such as 127.0.0.1, 10.0.0.0/8)`);
  }
  const token = env.METRICS_TOKEN || null;
  // Sent by a scraper on every request: long enough that guessing it is hopeless, and unlike any session token.
  if (token !== null && (token.length < 32 || /\s/.test(token))) problems.push('METRICS_TOKEN must be at least 32 characters, without spaces');
  return allow.length === 0 && token === null ? null : { allow, token };
}

/** Reads and validates the environment once; every problem is reported together so a bad deploy is fixed in one go. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];

  let port = 8080;
  if (env.PORT !== undefined && env.PORT !== '') {
    port = Number(env.PORT);
    if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push(`PORT must be a whole number from 0 to 65535 (got "${env.PORT}")`);
  }

  const dataDir = path.resolve(REPO_ROOT, env.DATA_DIR || 'data');
  const databaseUrl = urlWithScheme('DATABASE_URL', env.DATABASE_URL, ['postgres', 'postgresql'], problems);
  const redisUrl = urlWithScheme('REDIS_URL', env.REDIS_URL, ['redis', 'rediss'], problems);
  const smtpUrl = urlWithScheme('SMTP_URL', env.SMTP_URL, ['smtp', 'smtps'], problems);

  const publicUrlValue = urlWithScheme('PUBLIC_URL', env.PUBLIC_URL, ['http', 'https'], problems);
  const publicUrl = publicUrlValue ? publicUrlValue.replace(/\/+$/, '') : null;

  if (smtpUrl && !publicUrl) problems.push('PUBLIC_URL must be set when SMTP_URL is: mailed links must name the address users reach the console at');

  let jobRetentionDays = 30;
  if (env.JOB_RETENTION_DAYS !== undefined && env.JOB_RETENTION_DAYS !== '') {
    jobRetentionDays = Number(env.JOB_RETENTION_DAYS);
    if (!Number.isInteger(jobRetentionDays) || jobRetentionDays < 1 || jobRetentionDays > 3650)
      problems.push(`JOB_RETENTION_DAYS must be a whole number of days from 1 to 3650 (got "${env.JOB_RETENTION_DAYS}")`);
  }

  const siteRule = env.SITE_RULE && env.SITE_RULE.trim() !== '' ? env.SITE_RULE : null;
  if (siteRule !== null) {
    try {
      compileSiteRule(siteRule);
    } catch (error) {
      problems.push(`SITE_RULE: ${(error as Error).message.replace(/^site rule: /, '')}`);
    }
  }

  let trustProxy: Config['trustProxy'] = false;
  const proxy = (env.TRUST_PROXY ?? '').trim();
  if (/^\d+$/.test(proxy)) trustProxy = Number(proxy) === 0 ? false : Number(proxy);
  else if (['false', 'no', ''].includes(proxy.toLowerCase())) trustProxy = false;
  else if (/^[0-9A-Fa-f:./,\s]+$/.test(proxy)) trustProxy = proxy;
  else problems.push(`TRUST_PROXY must be a number of proxy hops or a comma-separated list of proxy addresses (got "${proxy}")`);

  let hstsMaxAge: number | null = null;
  const hsts = (env.HSTS_MAX_AGE ?? '').trim();
  if (hsts !== '') {
    hstsMaxAge = /^\d{1,9}$/.test(hsts) ? Number(hsts) : NaN;
    // Two years is the longest anyone asks for (the preload list wants one); more is a typo. 0 tells browsers to forget an earlier pin.
    if (!Number.isInteger(hstsMaxAge) || hstsMaxAge > MAX_HSTS_MAX_AGE)
      problems.push(`HSTS_MAX_AGE must be a whole number of seconds from 0 to ${MAX_HSTS_MAX_AGE} (two years; 31536000 is one) (got "${hsts}")`);
  }

  const metrics = metricsAccess(env, problems);

  const jwtSecret = env.JWT_SECRET || null;
  if (jwtSecret !== null && jwtSecret.length < 32) problems.push('JWT_SECRET must be at least 32 characters long');

  const adminEmail = env.ADMIN_EMAIL || DEFAULT_ADMIN_EMAIL;
  if (!EMAIL.test(adminEmail)) problems.push(`ADMIN_EMAIL is not a valid email address (got "${adminEmail}")`);
  const adminPassword = env.ADMIN_PASSWORD || DEFAULT_ADMIN_PASSWORD;
  if (adminPassword.length < 10) problems.push('ADMIN_PASSWORD must be at least 10 characters long');
  if (adminPassword.toLowerCase() === adminEmail.toLowerCase()) problems.push('ADMIN_PASSWORD must differ from ADMIN_EMAIL');
  else if (adminPassword.length >= 10) {
    // The first administrator's password follows the rules every other password does.
    const weakness = passwordProblem(adminPassword, adminEmail);
    if (weakness) problems.push(`ADMIN_PASSWORD: ${weakness}`);
  }

  // The defaults suit a laptop's SQLite file. A deployment (PostgreSQL) gets no demo operators and users
  // unless it asks for them, and no first administrator with the password the README prints.
  const deployment = databaseUrl !== null;
  if (deployment && !env.ADMIN_PASSWORD) {
    problems.push("ADMIN_PASSWORD is required with DATABASE_URL: a deployment's first administrator gets no default password");
  }
  let demoData = !deployment;
  if (env.DEMO_DATA !== undefined && env.DEMO_DATA !== '') {
    const v = env.DEMO_DATA.toLowerCase();
    if (['1', 'true', 'yes'].includes(v)) demoData = true;
    else if (['0', 'false', 'no'].includes(v)) demoData = false;
    else problems.push(`DEMO_DATA must be 1 or 0 (got "${env.DEMO_DATA}")`);
  }

  const logLevel = (env.LOG_LEVEL || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const remoteUrls: Record<string, string> = {};
  for (const name of REMOTE_NAMES) {
    const variable = `REMOTE_${name.toUpperCase().replace(/-/g, '_')}_URL`;
    const value = env[variable];
    if (!value) continue;
    if (value.startsWith('/')) remoteUrls[name] = value;
    else if (urlWithScheme(variable, value, ['http', 'https'], problems)) remoteUrls[name] = value;
  }

  const biServers = [powerBiServer(env, problems), tableauServer(env, problems)].filter((s): s is BiServerConfig => s !== null);
  const tiles = mapTileUrl(env.MAP_TILE_URL, problems);

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl,
    redisUrl,
    smtpUrl,
    jwtSecret,
    publicUrl,
    jobRetentionDays,
    siteRule,
    trustProxy,
    hstsMaxAge,
    metrics,
    adminEmail,
    adminPassword,
    demoData,
    logLevel,
    webRoot: path.resolve(REPO_ROOT, env.WEB_ROOT || '.'),
    remoteUrls,
    biServers,
    mapTileUrl: tiles,
  };
}
