import type { FastifyInstance } from 'fastify';
import type { JobKind } from '../jobs/model';
import { runAnswerOutcome, runNotificationKey } from '../jobs/outcome';
import type { OptimisationAnswer, OptimisationParams } from './run';

export const OPTIMIZATION_JOB_KIND = 'optimization.neighbours';

/** The optimisation run as a job (docs/architecture.md#how-a-job-flows): the reading and the engine run in a worker thread. */
export function registerOptimizationJobs(app: FastifyInstance): void {
  app.jobs.register<OptimisationParams>({
    kind: OPTIMIZATION_JOB_KIND,
    label: 'Nbr relations optimisation',
    // Not repeated after a restart: the owner decides whether to run those statistics again.
    idempotent: false,
    run: ({ params, progress, signal, jobId }) => app.runTask(OPTIMIZATION_JOB_KIND, { ...params, jobId }, progress, signal),
    notificationKey: (_params, _ok, body) => runNotificationKey('optimization-neighbours', body),
    outcome: runAnswerOutcome,
    notification: ({ ok, message, body }) =>
      ok ? ((body as Partial<OptimisationAnswer> | null)?.notice ?? message) : `Nbr relations optimisation not run: ${message}`,
  } satisfies JobKind<OptimisationParams>);
}
