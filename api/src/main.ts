import path from 'node:path';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase, type DatabaseHandle } from './db/database';
import { runInOperator } from './db/operator-scope';
import { migrateToLatest } from './db/migrate';
import type { FastifyInstance } from 'fastify';
import type { CoordinateEncoding } from './domain/network';
import { DEMO_NETWORK_FILE, importDemoNetworkIfEmpty } from './network/demo';
import type { DumpImportAnswer, DumpImportParams } from './network/jobs';
import { parseDemoLogsIfNone, type DemoParseParams } from './monitoring/demo-logs';
import { DEMO_CREDENTIALS, seed } from './seed';
import { importDemoTrackingIfEmpty } from './tracking';

/** The demo network goes in as a job (owner: none), so the job dashboard shows it like any import. */
async function importDemoAsJob(app: FastifyInstance, file: string, coords: CoordinateEncoding): Promise<DumpImportAnswer> {
  const job = await app.jobs.run<DumpImportParams>('network.import', null, {
    file: path.relative(app.services.config.dataDir, file),
    removeAfter: false,
    fileName: DEMO_NETWORK_FILE,
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

/** The demo network, tracking data and MoBatch logs, once, into an empty console. */
async function seedDemoData(app: FastifyInstance, handle: DatabaseHandle, config: Config): Promise<void> {
  // The demo network goes through the real importer, so a fresh console exercises the real path.
  const demo = await importDemoNetworkIfEmpty(handle.db, { dataDir: config.dataDir, importer: (file, coords) => importDemoAsJob(app, file, coords) });
  if (demo) app.log.info({ file: demo.file, counts: demo.counts }, 'demo network imported');
  // After the network: the plan and work orders name the demo network's sites.
  const tracking = await importDemoTrackingIfEmpty(handle.db);
  if (tracking) app.log.info(tracking, 'demo tracking data written');
  // After the network too: the logs are those of its nodes. Monitoring demo data is a nicety, never a reason not to start.
  try {
    const logs = await parseDemoLogsIfNone(handle.db, { dataDir: config.dataDir, parse: (params) => parseDemoLogsAsJob(app, params) });
    if (logs)
      app.log.info({ file: logs.file, logs: logs.summary.logs, unreachable: logs.summary.unreachable, answer: logs.parsed }, 'demo MoBatch logs parsed');
  } catch (error) {
    app.log.warn({ err: error }, 'the demo MoBatch logs could not be parsed; the monitoring pages start empty');
  }
}

async function start(config: Config): Promise<void> {
  const handle = openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'cellwise.sqlite') });
  const applied = await migrateToLatest(handle.db);
  const seeded = await seed(handle.db, config);
  const app = await buildApp({ config, db: handle.db, dialect: handle.dialect, database: handle.options });
  if (applied.length > 0) app.log.info({ migrations: applied }, 'database migrated');
  if (seeded.createdUsers.length > 0) app.log.info({ users: seeded.createdUsers }, 'accounts seeded');
  if (config.demoData) await app.ready();
  const firstOperator = config.demoData ? await handle.db.selectFrom('operators').select('id').orderBy('id').executeTakeFirst() : undefined;
  // The demo data belongs to the first demo operator (docs/tenancy.md).
  if (firstOperator) await runInOperator(firstOperator.id, () => seedDemoData(app, handle, config));

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
