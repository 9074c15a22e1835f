import type { FastifyInstance } from 'fastify';
import { purgeExpiredFiles } from '../files/purge';
import { deleteJobs, expiredJobs } from './store';

const DAY_MS = 24 * 60 * 60 * 1000;
export const RETENTION_KIND = 'jobs.retention';

/**
 * Retention as a job of its own (docs/architecture.md#how-a-job-flows): finished jobs older than JOB_RETENTION_DAYS are removed,
 * and with them what expired of the files (uploads and exports expire sooner than the jobs that made
 * them). Queued at start and then daily; idempotent, so several instances queueing it is harmless.
 */
export function registerRetention(app: FastifyInstance): void {
  app.jobs.register<Record<string, never>>({
    kind: RETENTION_KIND,
    label: 'Retention',
    idempotent: true,
    async run({ progress }) {
      const now = app.auth.clock();
      const before = new Date(now - app.services.config.jobRetentionDays * DAY_MS).toISOString();
      progress(10, 'Finding old jobs');
      const old = await expiredJobs(app.services.db, before);
      await deleteJobs(
        app.services.db,
        old.map((job) => job.id),
      );
      progress(60, 'Removing expired files');
      const files = await purgeExpiredFiles(app.services.db, app.services.config.dataDir, now);
      return {
        message: `Removed ${old.length} finished ${old.length === 1 ? 'job' : 'jobs'} older than ${app.services.config.jobRetentionDays} days.`,
        jobs: old.length,
        files,
      };
    },
    notification: () => null,
  });

  let timer: NodeJS.Timeout | null = null;
  const queue = () => app.jobs.enqueue(RETENTION_KIND, null, {}).catch((error: unknown) => app.log.warn({ err: error }, 'retention job not queued'));
  app.addHook('onReady', async () => {
    void queue();
    timer = setInterval(() => void queue(), DAY_MS);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    if (timer) clearInterval(timer);
  });
}
