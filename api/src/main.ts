import path from 'node:path';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase, type DatabaseHandle } from './db/database';
import { migrateToLatest } from './db/migrate';
import type { FastifyInstance } from 'fastify';
import type { CoordinateEncoding } from './domain/network';
import type { DumpImportAnswer, DumpImportParams } from './network/jobs';
import type { DemoParseParams } from './demo/logs';
import { DEMO_CREDENTIALS, seed } from './seed';
import { seedDemoData } from './seed/demo-data';

/**
 * A demo network goes in as a job (owner: none, operator: the one seeding runs as), so the job
 * dashboard shows it like any import.
 */
async function importDemoAsJob(app: FastifyInstance, file: string, coords: CoordinateEncoding, fileName: string): Promise<DumpImportAnswer> {
  const job = await app.jobs.run<DumpImportParams>('network.import', null, {
    file: path.relative(app.services.config.dataDir, file),
    removeAfter: false,
    fileName,
    format: 'bulkcm',
    coords,
    siteRule: null,
    importedBy: null,
  });
  if (job.outcome?.status !== 200) throw new Error(`The demo network could not be imported: ${job.error ?? 'unknown error'}`);
  return job.outcome.body as DumpImportAnswer;
}

/** The demo logs go through the real parse job (owner: none), like an upload. */
async function parseDemoLogsAsJob(app: FastifyInstance, params: DemoParseParams): Promise<unknown> {
  const job = await app.jobs.run<DemoParseParams>('monitoring.parse', null, params);
  if (job.outcome?.status !== 200) throw new Error((job.outcome?.body as { message?: string } | undefined)?.message ?? job.error ?? 'unknown error');
  return job.outcome.body;
}

/** Each demo operator's network, tracking data and MoBatch logs, once each (api/src/seed/demo-data.ts). */
async function seedDemo(app: FastifyInstance, handle: DatabaseHandle, config: Config): Promise<void> {
  const started = performance.now();
  const result = await seedDemoData(handle.db, {
    dataDir: config.dataDir,
    importNetwork: (file, coords, fileName) => importDemoAsJob(app, file, coords, fileName),
    parseLogs: (params) => parseDemoLogsAsJob(app, params),
    log: { info: (fields, message) => app.log.info(fields, message), warn: (fields, message) => app.log.warn(fields, message) },
  });
  // The e2e suites start the console several times: this line is how its cost is watched.
  if (result.networks.length > 0) app.log.info({ ...result, ms: Math.round(performance.now() - started) }, 'demo data seeded');
}

async function start(config: Config): Promise<void> {
  const handle = openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'cellwise.sqlite') });
  const applied = await migrateToLatest(handle.db);
  const seeded = await seed(handle.db, config);
  const app = await buildApp({ config, db: handle.db, dialect: handle.dialect, database: handle.options });
  if (applied.length > 0) app.log.info({ migrations: applied }, 'database migrated');
  if (seeded.createdUsers.length > 0) app.log.info({ users: seeded.createdUsers }, 'accounts seeded');
  if (config.demoData) await app.ready();
  if (config.demoData) await seedDemo(app, handle, config);

  if (!config.publicUrl)
    app.log.warn('PUBLIC_URL is not set: links in mails point at http://localhost:<port>; set it to the address users reach the console at');
  const shutdown = async (signal: string) => {
    app.log.info(`${signal} received, shutting down`);
    await app.close();
    await handle.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const store = handle.dialect === 'sqlite' ? path.join(config.dataDir, 'cellwise.sqlite') : 'PostgreSQL';
  process.stdout.write(
    [
      '',
      `  Cellwise is running at http://localhost:${port}/`,
      `  Sign in as ${config.adminEmail} / ${process.env.ADMIN_PASSWORD ? '(ADMIN_PASSWORD)' : config.adminPassword}`,
      ...(config.demoData ? ['  Demo users:', ...DEMO_CREDENTIALS.map((u) => `    ${u.email} / ${u.password}  (${u.role}; ${u.note})`)] : []),
      `  Database: ${store}   API docs: http://localhost:${port}/api/docs`,
      '',
    ].join('\n') + '\n',
  );
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
start(config).catch((error: unknown) => {
  process.stderr.write(`Cellwise could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
