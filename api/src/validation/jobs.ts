import type { FastifyInstance } from 'fastify';
import type { JobKind } from '../jobs/model';
import { runAnswerOutcome, runNotificationKey } from '../jobs/outcome';
import { CPICH_JOB_KIND, type CpichAnswer, type CpichParams } from './cpich';
import { NBR_JOB_KIND, type NbrAnswer, type NbrParams } from './neighbours';

/**
 * The validation runs as jobs (docs/architecture.md#how-a-job-flows): each computes in a worker thread and records its run; the
 * owner is told what it found (the run's outcome as its icon), with a key that opens the run's result.
 */

const noticeOf = (body: unknown): string | undefined => (body as Partial<CpichAnswer | NbrAnswer> | null)?.notice;

export function registerValidationJobs(app: FastifyInstance): void {
  app.jobs.register<CpichParams>({
    kind: CPICH_JOB_KIND,
    label: 'Cpich validation',
    // Reads the dump and records a new run: running it again after a restart gives the same answer.
    idempotent: true,
    run: ({ params, progress, signal, jobId }) => app.runTask(CPICH_JOB_KIND, { ...params, jobId }, progress, signal),
    notificationKey: (_params, _ok, body) => runNotificationKey('validation-cpich', body),
    outcome: runAnswerOutcome,
    notification: ({ ok, message, body }, params) => (ok ? (noticeOf(body) ?? message) : `Cpich validation of ${params.sites.join(', ')} not run: ${message}`),
  } satisfies JobKind<CpichParams>);
  app.jobs.register<NbrParams>({
    kind: NBR_JOB_KIND,
    label: 'Neighbour relations validation',
    // Its uploads may be gone after a restart: the owner decides whether to run it again.
    idempotent: false,
    run: ({ params, progress, signal, jobId }) => app.runTask(NBR_JOB_KIND, { ...params, jobId }, progress, signal),
    notificationKey: (_params, _ok, body) => runNotificationKey('validation-neighbours', body),
    outcome: runAnswerOutcome,
    notification: ({ ok, message, body }, params) =>
      ok ? (noticeOf(body) ?? message) : `Neighbour relations validation of ${params.site} not run: ${message}`,
  } satisfies JobKind<NbrParams>);
}
