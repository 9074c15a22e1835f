import type { FastifyInstance } from 'fastify';
import type { DatabaseOptions } from '../db/database';
import type { JobKind, Task, TaskContext } from './model';
import { InProcessQueue, PgBossQueue, type JobQueue } from './queue';
import { registerRetention } from './retention';
import { JobRunner, type JobTimings } from './runner';
import { closeIdleThreads, runInThread } from './threads';
import { THREAD_TASKS } from './thread-tasks';

export * from './model';
export { InProcessQueue, PgBossQueue, type JobQueue } from './queue';
export { DEFAULT_JOB_TIMINGS, JobRunner, type JobTimings } from './runner';
export { jobTone, refusalOutcome, runAnswerOutcome, runIdOf, runNotificationKey, runOutcome } from './outcome';
export { listJobs, findJob, type JobFilter } from './store';

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobRunner;
    /** Runs a registered task in a worker thread with its own connection (inline when the database cannot be shared). */
    runTask: (task: string, params: unknown, progress: TaskContext['progress'], signal?: AbortSignal) => Promise<unknown>;
  }
}

export interface JobOptions {
  /** Defaults to pg-boss with DATABASE_URL, else in process. */
  queue?: JobQueue;
  timings?: Partial<JobTimings>;
  /** Kinds registered before the runner starts, besides the features' own (tests). */
  kinds?: ReadonlyArray<JobKind<never>>;
}

/** pg-boss's schema: beside the console's own, so test databases (one schema each) never share a queue. */
function pgBossSchema(database: DatabaseOptions | undefined): string {
  return database?.pgSchema ? `${database.pgSchema}_jobs` : 'pgboss';
}

/**
 * The job runner as an app service: started once every route is registered (kinds register with
 * their routes), stopped before the database closes.
 */
export function registerJobs(app: FastifyInstance, database: DatabaseOptions | undefined, options: JobOptions = {}): void {
  const { config } = app.services;
  const queue =
    options.queue ??
    (config.databaseUrl
      ? new PgBossQueue({
          connectionString: config.databaseUrl,
          schema: pgBossSchema(database),
          onError: (error) => app.log.warn({ err: error }, 'job queue (pg-boss) error'),
        })
      : new InProcessQueue());
  const runner = new JobRunner({
    db: app.services.db,
    queue,
    clock: () => app.auth.clock(),
    log: app.log,
    timings: options.timings,
    // The icon and the variant are the outcome (specification §3), so the bell and the toast tell it alike.
    notify: async (userId, title, tone, key) => {
      await app.notifications.notify([userId], { key, title, icon: tone, variant: tone });
    },
    push: (userId, target, payload) => app.notifications.broadcast({ target, deliveries: [{ userId, args: [payload] }] }),
  });
  for (const kind of options.kinds ?? []) runner.register(kind);
  app.decorate('jobs', runner);

  // A thread needs a database it can open again: a file or a server, not an in-memory SQLite.
  const shareable = database !== undefined && (database.databaseUrl !== null || database.sqliteFile !== ':memory:');
  app.decorate('runTask', (task: string, params: unknown, progress: TaskContext['progress'], signal?: AbortSignal) => {
    if (shareable) return runInThread(task, params, { database, dataDir: config.dataDir }, (percent, text) => progress(percent, text ?? undefined), signal);
    const run: Task | undefined = THREAD_TASKS[task];
    if (!run) return Promise.reject(new Error(`Unknown task ${task}.`));
    return run(params as never, { db: app.services.db, dialect: app.services.dialect, dataDir: config.dataDir, progress });
  });

  app.addHook('onReady', async () => runner.start());
  registerRetention(app);
  // First thing on close: running work ends before anything it needs (database, hub) goes away.
  app.addHook('preClose', async () => {
    await runner.stop();
    await closeIdleThreads();
  });
}
