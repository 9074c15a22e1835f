import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { can } from 'shared-auth/policy';
import { ErrorResponse, JOB_ROUTE_MESSAGES, JobDetails, JobIdBody, JobIdQuery, type JobRow, JobsPage, JobsQuery, MessageResponse } from 'contracts';
import { findJob, jobTone, listJobs, type JobRecord } from '../jobs';
import { fail, sessionOf } from './support';

const tags = ['jobs'];
const security = [{ bearer: [] }];

/** A job as the dashboard shows it: owner's and operator's names, label, duration, and what may be done with it. */
async function rowsOf(app: FastifyInstance, jobs: readonly JobRecord[]): Promise<JobRow[]> {
  const ownerIds = [...new Set(jobs.flatMap((j) => (j.ownerId === null ? [] : [j.ownerId])))];
  const owners =
    ownerIds.length === 0
      ? new Map<number, string>()
      : new Map(
          (await app.services.db.selectFrom('users').select(['id', 'firstname', 'lastname']).where('id', 'in', ownerIds).execute()).map((u) => [
            u.id,
            `${u.firstname} ${u.lastname}`,
          ]),
        );
  const operatorIds = [...new Set(jobs.flatMap((j) => (j.operatorId === null ? [] : [j.operatorId])))];
  const operators =
    operatorIds.length === 0
      ? new Map<number, string>()
      : new Map((await app.services.db.selectFrom('operators').select(['id', 'name']).where('id', 'in', operatorIds).execute()).map((o) => [o.id, o.name]));
  const now = app.auth.clock();
  return jobs.map((job) => {
    const kind = app.jobs.kindOf(job.kind);
    const started = job.startedAt ? Date.parse(job.startedAt) : null;
    const ended = job.finishedAt ? Date.parse(job.finishedAt) : now;
    return {
      id: job.id,
      kind: job.kind,
      label: kind?.label ?? job.kind,
      ownerId: job.ownerId,
      owner: job.ownerId === null ? null : (owners.get(job.ownerId) ?? null),
      operatorId: job.operatorId,
      operator: job.operatorId === null ? null : (operators.get(job.operatorId) ?? null),
      state: job.state,
      progress: job.progress,
      progressText: job.progressText,
      createdAt: job.createdAt,
      startedAt: job.startedAt,
      finishedAt: job.finishedAt,
      durationMs: started === null ? null : Math.max(0, ended - started),
      error: job.error,
      outcome: job.outcome && (job.state === 'succeeded' || job.state === 'failed') ? jobTone(kind, job.outcome, job.params) : null,
      attempts: job.attempts,
      retryable: (job.state === 'failed' || job.state === 'cancelled') && (kind?.idempotent ?? false),
      cancellable: job.state === 'queued',
    };
  });
}

/** The job dashboard's calls (docs/architecture.md#how-a-job-flows). */
export const jobRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/Jobs/GetJobs',
    {
      schema: {
        summary: 'Every job, newest first; filters by state and kind',
        tags,
        security,
        querystring: JobsQuery,
        response: { 200: JobsPage, 400: ErrorResponse },
      },
      config: { access: 'canSeeJobDashboard' },
    },
    async (request) => {
      const { state, kind, page = 1, size = 20 } = request.query;
      const { rows, total } = await listJobs(app.services.db, { state, kind, page, size });
      return { rows: await rowsOf(app, rows), total, kinds: app.jobs.kindNames.map((name) => ({ kind: name, label: app.jobs.kindOf(name)?.label ?? name })) };
    },
  );

  app.get(
    '/Jobs/GetJob',
    {
      schema: {
        summary: 'One job with its parameters and result: its owner’s or, for Administrators, anyone’s',
        tags,
        security,
        querystring: JobIdQuery,
        response: { 200: JobDetails, 400: ErrorResponse, 404: ErrorResponse },
      },
      config: { access: 'authenticated' },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const job = await findJob(app.services.db, request.query.id);
      // Someone else's job is "not found": its existence is nobody else's business.
      if (!job || (job.ownerId !== session.userId && !can(session.principal, 'canSeeJobDashboard'))) return fail(reply, 404, JOB_ROUTE_MESSAGES.notFound);
      const [row] = await rowsOf(app, [job]);
      return { job: row!, params: job.params, outcome: job.outcome };
    },
  );

  /** Retry and Cancel: an action on one job that either applies (200) or does not fit its state (409). */
  const action = (url: string, summary: string, apply: (job: JobRecord) => Promise<boolean>, done: string, refused: string) =>
    app.post(
      url,
      {
        schema: { summary, tags, security, body: JobIdBody, response: { 200: MessageResponse, 404: ErrorResponse, 409: ErrorResponse } },
        config: { access: 'canSeeJobDashboard' },
      },
      async (request, reply) => {
        const job = await findJob(app.services.db, request.body.id);
        if (!job) return fail(reply, 404, JOB_ROUTE_MESSAGES.notFound);
        if (!(await apply(job))) return fail(reply, 409, refused);
        return { message: done };
      },
    );
  action(
    '/Jobs/RetryJob',
    'Run a failed job again (kinds that are safe to repeat)',
    (job) => app.jobs.retry(job),
    JOB_ROUTE_MESSAGES.retried,
    JOB_ROUTE_MESSAGES.notRetryable,
  );
  action(
    '/Jobs/CancelJob',
    'Cancel a job that has not started',
    (job) => app.jobs.cancel(job.id),
    JOB_ROUTE_MESSAGES.cancelled,
    JOB_ROUTE_MESSAGES.notCancellable,
  );
};
