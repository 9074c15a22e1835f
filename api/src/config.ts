import path from 'node:path';
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
  /** Default site rule of network imports (DESIGN §7.1): a regular expression with a group `site`; null = the built-in rule. */
  siteRule: string | null;
  /** Fastify's trustProxy: false, a hop count, or the proxies' addresses; decides what `request.ip` is. */
  trustProxy: boolean | number | string;
  adminEmail: string;
  adminPassword: string;
  demoData: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Where the built shell and remotes live; each remote may be overridden by REMOTE_<NAME>_URL. */
  webRoot: string;
  remoteUrls: Record<string, string>;
}

export const DEFAULT_ADMIN_EMAIL = 'admin@cellwise.local';
export const DEFAULT_ADMIN_PASSWORD = 'Cellwise-Admin-1';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
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

  const jwtSecret = env.JWT_SECRET || null;
  if (jwtSecret !== null && jwtSecret.length < 32) problems.push('JWT_SECRET must be at least 32 characters long');

  const adminEmail = env.ADMIN_EMAIL || DEFAULT_ADMIN_EMAIL;
  if (!EMAIL.test(adminEmail)) problems.push(`ADMIN_EMAIL is not a valid email address (got "${adminEmail}")`);
  const adminPassword = env.ADMIN_PASSWORD || DEFAULT_ADMIN_PASSWORD;
  if (adminPassword.length < 10) problems.push('ADMIN_PASSWORD must be at least 10 characters long');
  if (adminPassword.toLowerCase() === adminEmail.toLowerCase()) problems.push('ADMIN_PASSWORD must differ from ADMIN_EMAIL');

  let demoData = true;
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
    adminEmail,
    adminPassword,
    demoData,
    logLevel,
    webRoot: path.resolve(REPO_ROOT, env.WEB_ROOT || '.'),
    remoteUrls,
  };
}
