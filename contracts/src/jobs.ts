import { Type, type Static } from '@sinclair/typebox';
import { PageNumber } from './common';

/**
 * The job dashboard (docs/architecture.md#how-a-job-flows): `Jobs/GetJobs` lists every job for Administrators; `Jobs/GetJob` shows
 * one to its owner or an Administrator; Retry and Cancel are the Administrator's.
 */
export const JobStateName = Type.Union([
  Type.Literal('queued'),
  Type.Literal('running'),
  Type.Literal('succeeded'),
  Type.Literal('failed'),
  Type.Literal('cancelled'),
]);
export type JobStateName = Static<typeof JobStateName>;

export const JobRow = Type.Object(
  {
    id: Type.String(),
    kind: Type.String(),
    label: Type.String(),
    ownerId: Type.Union([Type.Integer(), Type.Null()]),
    /** The owner's name; null for work the system started (demo data, retention, the command line). */
    owner: Type.Union([Type.String(), Type.Null()]),
    /** The operator it was submitted in and runs in (its data is that operator's); null for system work. */
    operatorId: Type.Union([Type.Integer(), Type.Null()]),
    /** That operator's name; null for system work (or an operator deleted since). */
    operator: Type.Union([Type.String(), Type.Null()]),
    state: JobStateName,
    progress: Type.Integer({ minimum: 0, maximum: 100 }),
    progressText: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String(),
    startedAt: Type.Union([Type.String(), Type.Null()]),
    finishedAt: Type.Union([Type.String(), Type.Null()]),
    /** From start to finish (or to now while running), in ms; null before it starts. */
    durationMs: Type.Union([Type.Integer(), Type.Null()]),
    error: Type.Union([Type.String(), Type.Null()]),
    /**
     * How a finished job turned out, as its notification told it: success, warning (a run with warnings,
     * a parse with unreachable nodes, a 599) or error (a run that found errors, a refusal); null before it
     * ends and for a cancelled one.
     */
    outcome: Type.Union([Type.Literal('success'), Type.Literal('warning'), Type.Literal('error'), Type.Null()]),
    attempts: Type.Integer(),
    retryable: Type.Boolean(),
    cancellable: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type JobRow = Static<typeof JobRow>;

export const JobDetails = Type.Object(
  {
    job: JobRow,
    params: Type.Unknown(),
    /** What the call that started it answered: HTTP status and body. */
    outcome: Type.Union([Type.Object({ status: Type.Integer(), body: Type.Unknown() }, { additionalProperties: false }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type JobDetails = Static<typeof JobDetails>;

export const JobsQuery = Type.Object(
  {
    state: Type.Optional(JobStateName),
    kind: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
    page: Type.Optional(PageNumber({ default: 1 })),
    size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  },
  { additionalProperties: false },
);
export type JobsQuery = Static<typeof JobsQuery>;

export const JobsPage = Type.Object(
  { rows: Type.Array(JobRow), total: Type.Integer({ minimum: 0 }), kinds: Type.Array(Type.Object({ kind: Type.String(), label: Type.String() })) },
  { additionalProperties: false },
);
export type JobsPage = Static<typeof JobsPage>;

export const JobIdQuery = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
export type JobIdQuery = Static<typeof JobIdQuery>;
export const JobIdBody = JobIdQuery;
export type JobIdBody = JobIdQuery;

export const JOB_ROUTE_MESSAGES = {
  notFound: 'Job not found.',
  notRetryable: 'Only a failed or cancelled job of a kind that is safe to repeat can be retried.',
  notCancellable: 'Only a queued job can be cancelled.',
  retried: 'Job queued again.',
  cancelled: 'Job cancelled.',
} as const;
