/**
 * `npm run import:dump -- <file> [--format auto|bulkcm|cmedit] [--coords microdegrees|3gpp|degrees] [--site-rule <regex>] [--operator <id|name>]`
 *
 * Imports a network dump into the configured database (DATA_DIR / DATABASE_URL, as the server reads
 * them), migrating it first, and prints what was stored, with the sites holding the most nodes so a
 * wrong site rule shows at once. The site rule defaults to SITE_RULE from the environment, else the
 * built-in rule. The same all-or-nothing import as the API: a file that cannot be read prints the
 * parser's message (with line and column), changes nothing and exits with status 1.
 *
 * The dump replaces one operator's inventory (operators are tenants, docs/tenancy.md): the one named by
 * --operator (id or name), or the only one there is. With several and none named, nothing is guessed:
 * replacing the wrong operator's inventory is worse than asking.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { ConfigError, loadConfig, type Config } from '../config';
import { openDatabase, type Dialect } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { runInOperator } from '../db/operator-scope';
import type { Database } from '../db/schema';
import {
  compileSiteRule,
  COORDINATE_ENCODINGS,
  DEFAULT_SITE_RULE,
  NetworkOptionError,
  RELATION_KINDS,
  totalOf,
  type CoordinateEncoding,
  type NetworkCounts,
  type SiteRule,
  type SiteSummary,
} from '../domain/network';
import pino from 'pino';
import { InProcessQueue, JobRunner } from '../jobs';
import { IMPORT_FORMATS, type ImportFormat } from '../network';
import { dumpImportKind, dumpImportTask, type DumpImportAnswer, type DumpImportParams } from '../network/jobs';

export const USAGE = `Usage: npm run import:dump -- <file> [--format ${IMPORT_FORMATS.join('|')}] [--coords ${COORDINATE_ENCODINGS.join('|')}] [--site-rule <regex with (?<site>…)>] [--operator <id|name>]`;

const OPTIONS = new Set(['format', 'coords', 'site-rule', 'operator']);

export interface CliArgs {
  file: string;
  format: ImportFormat;
  coords: CoordinateEncoding;
  /** Absent: the built-in rule. */
  siteRule?: SiteRule;
  /** The operator whose inventory the dump replaces, by id or name; absent: the only operator. */
  operator?: string;
}

/** Defaults the environment supplies (SITE_RULE). */
export interface CliDefaults {
  siteRule?: string | undefined;
}

export interface CliOutput {
  out: (text: string) => void;
  err: (text: string) => void;
}

const PROCESS_OUTPUT: CliOutput = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

/** `--name value` and `--name=value`; anything wrong is answered as a message for the user. */
export function parseArgs(argv: readonly string[], defaults: CliDefaults = {}): CliArgs | { error: string } {
  const files: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) {
      files.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    if (!OPTIONS.has(name)) return { error: `Unknown option --${name}.` };
    const value = eq < 0 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || value === '') return { error: `--${name} needs a value.` };
    options[name] = value;
  }
  if (files.length !== 1) return { error: files.length === 0 ? 'Which file? Name the dump to import.' : 'Import one file at a time.' };
  const format = options.format ?? 'auto';
  if (!(IMPORT_FORMATS as readonly string[]).includes(format)) return { error: `--format must be one of ${IMPORT_FORMATS.join(', ')} (got "${format}").` };
  const coords = options.coords ?? 'microdegrees';
  if (!(COORDINATE_ENCODINGS as readonly string[]).includes(coords)) {
    return { error: `--coords must be one of ${COORDINATE_ENCODINGS.join(', ')} (got "${coords}").` };
  }
  const args: CliArgs = { file: files[0] as string, format: format as ImportFormat, coords: coords as CoordinateEncoding };
  if (options.operator !== undefined) args.operator = options.operator;
  const [origin, rule] = options['site-rule'] !== undefined ? ['--site-rule', options['site-rule']] : ['SITE_RULE', defaults.siteRule];
  if (rule !== undefined && rule.trim() !== '') {
    try {
      args.siteRule = compileSiteRule(rule);
    } catch (error) {
      if (error instanceof NetworkOptionError) return { error: error.message.replace(/^site rule: /, `${origin}: `) };
      throw error;
    }
  }
  return args;
}

function describe(counts: NetworkCounts): string[] {
  const list = (record: Record<string, number>) =>
    Object.entries(record)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
  const relations = RELATION_KINDS.filter((k) => counts.relations[k] > 0).map((k) => `${k} ${counts.relations[k]}`);
  return [
    `  sites           ${counts.sites}`,
    `  nodes           ${counts.nodes}`,
    `  cells           ${totalOf(counts.cells)} (${list(counts.cells)})`,
    `  external cells  ${totalOf(counts.externalCells)} (${list(counts.externalCells)})`,
    `  relations       ${totalOf(counts.relations)}${relations.length > 0 ? ` (${relations.join(', ')})` : ''}`,
  ];
}

function describeSites(sites: SiteSummary): string[] {
  const lines = [`  site rule       ${sites.rule}${sites.rule === DEFAULT_SITE_RULE.source ? ' (default)' : ''}`];
  if (sites.largest.length > 0) {
    const largest = sites.largest.map((s) => `${s.siteId} ${s.nodes}`).join(', ');
    lines.push(`  nodes per site  ${largest} (${sites.nodesOnSites} nodes on ${sites.total} sites)`);
  }
  return lines;
}

/**
 * Imports into an open, migrated database as a job of its own (docs/architecture.md#how-a-job-flows: on the job dashboard with the
 * server's, owner "command line"); answers the exit status.
 */
export async function runImportDump(
  db: Kysely<Database>,
  args: CliArgs,
  output: CliOutput = PROCESS_OUTPUT,
  where: { dialect: Dialect; dataDir: string } = { dialect: 'sqlite', dataDir: path.dirname(args.file) },
): Promise<number> {
  const started = Date.now();
  const jobs = new JobRunner({
    db,
    queue: new InProcessQueue(1),
    clock: Date.now,
    log: pino({ level: 'silent' }),
    notify: async () => undefined,
    push: async () => undefined,
  });
  jobs.register(dumpImportKind((params, progress) => dumpImportTask(params, { db, dialect: where.dialect, dataDir: where.dataDir, progress })));
  await jobs.start({ recover: false });
  try {
    const job = await jobs.run<DumpImportParams>('network.import', null, {
      file: path.resolve(args.file),
      removeAfter: false,
      fileName: path.basename(args.file),
      format: args.format,
      coords: args.coords,
      siteRule: args.siteRule ? args.siteRule.source : null,
      importedBy: null,
    });
    const outcome = job.outcome;
    if (!outcome || outcome.status !== 200) {
      const message = (outcome?.body as { message?: string } | undefined)?.message ?? job.error ?? 'The import failed.';
      if (outcome && outcome.status < 500) {
        output.err(`${args.file}: ${message}`);
        output.err('Nothing was changed: the previous network data set is intact.');
        return 1;
      }
      // The file went away (or never was readable) between the command line's check and the import.
      if (/^(ENOENT|EISDIR|EACCES)\b/.test(job.error ?? '')) {
        output.err(`Cannot read ${args.file}: ${job.error}`);
        return 1;
      }
      throw new Error(job.error ?? message);
    }
    const result = outcome.body as DumpImportAnswer;
    const seconds = (Date.now() - started) / 1000;
    output.out(`Network dump imported: ${result.counts.sites} sites, ${totalOf(result.counts.cells)} cells.`);
    for (const line of [...describe(result.counts), ...describeSites(result.sites)]) output.out(line);
    const size = result.bytes >= 1e6 ? `${(result.bytes / 1e6).toFixed(1)} MB` : `${(result.bytes / 1e3).toFixed(1)} kB`;
    output.out(`  ${size} in ${seconds.toFixed(1)} s; imported at ${result.importedAt}`);
    for (const warning of result.warnings) output.err(`Warning: ${warning}`);
    return 0;
  } finally {
    await jobs.stop();
  }
}

/** The operator the import lands in, or a message for the user when it cannot be told. */
export async function resolveOperator(db: Kysely<Database>, named: string | undefined): Promise<{ id: number; name: string } | { error: string }> {
  const operators = await db.selectFrom('operators').select(['id', 'name']).orderBy('id').execute();
  const listed = operators.map((o) => `${o.id} ${o.name}`).join(', ');
  if (named === undefined) {
    if (operators.length === 1) return operators[0]!;
    if (operators.length === 0) return { error: 'There is no operator yet: create one in the console (or start the server once with demo data) first.' };
    return { error: `Which operator's inventory does the dump replace? Name it with --operator <id|name> (${listed}).` };
  }
  const wanted = named.trim();
  const found = /^\d+$/.test(wanted) ? operators.find((o) => o.id === Number(wanted)) : operators.find((o) => o.name.toLowerCase() === wanted.toLowerCase());
  return found ?? { error: `--operator: no operator ${JSON.stringify(named)}${operators.length > 0 ? ` (${listed})` : ''}.` };
}

/** Reads the configuration like the server does, opens and migrates the database, imports. */
export async function main(
  argv: readonly string[] = process.argv.slice(2),
  env: NodeJS.ProcessEnv = process.env,
  output: CliOutput = PROCESS_OUTPUT,
): Promise<number> {
  const args = parseArgs(argv, { siteRule: env.SITE_RULE });
  if ('error' in args) {
    output.err(args.error);
    output.err(USAGE);
    return 2;
  }
  // npm runs workspace scripts inside api/; INIT_CWD is where the user typed the command.
  args.file = path.resolve(env.INIT_CWD ?? process.cwd(), args.file);
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      output.err(error.message);
      return 1;
    }
    throw error;
  }
  // Checked before touching the database, so a typo never even migrates it.
  try {
    if (!fs.statSync(args.file).isFile()) throw Object.assign(new Error(`${args.file} is not a file`), { code: 'EISDIR' });
  } catch (error) {
    output.err(`Cannot read ${args.file}: ${(error as Error).message}`);
    return 1;
  }
  const handle = openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'cellwise.sqlite') });
  try {
    await migrateToLatest(handle.db);
    const operator = await resolveOperator(handle.db, args.operator);
    if ('error' in operator) {
      output.err(operator.error);
      return 1;
    }
    // The import job records the operator it is submitted in, and runs in it.
    const status = await runInOperator(operator.id, () => runImportDump(handle.db, args, output, { dialect: handle.dialect, dataDir: config.dataDir }));
    if (status === 0) output.out(`  operator        ${operator.name} (${operator.id})`);
    return status;
  } finally {
    await handle.close();
  }
}

if (require.main === module) {
  main().then(
    (status) => {
      process.exitCode = status;
    },
    (error: unknown) => {
      process.stderr.write(`Import failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
