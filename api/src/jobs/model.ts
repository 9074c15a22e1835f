import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * The one way long work runs (docs/architecture.md#how-a-job-flows): a job is a row with its kind, owner, parameters, state,
 * progress and outcome. Kinds say what they do; the runner decides where and when.
 */

export const JOB_STATES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];
export const FINISHED_STATES: ReadonlySet<JobState> = new Set(['succeeded', 'failed', 'cancelled']);

export const JOB_MESSAGES = {
  interrupted: 'Interrupted by a restart — nothing was changed.',
  cancelled: 'Cancelled before it started.',
  serverFault: 'Something went wrong!',
} as const;

/**
 * How a finished job turned out, as its notification's icon and variant say it (specification §3:
 * success, warning or error). Told by what the job found, not only by whether it threw: a validation
 * that found errors ran fine, and still is not a success for whoever reads the bell.
 */
export const JOB_TONES = ['success', 'warning', 'error'] as const;
export type JobTone = (typeof JOB_TONES)[number];

/**
 * What a finished job answers, as the call that started it would have: the HTTP status and body. A
 * refusal (a workbook with bad rows) is a failed job whose outcome is a 400 with the row problems.
 */
export interface JobOutcome {
  status: number;
  body: unknown;
}

export interface JobRecord {
  id: string;
  kind: string;
  ownerId: number | null;
  /** The operator it was submitted in; null for system work. */
  operatorId: number | null;
  params: unknown;
  state: JobState;
  progress: number;
  progressText: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  outcome: JobOutcome | null;
  error: string | null;
  attempts: number;
}

/** A job's refusal with the answer its caller gets (status 4xx or 599, and the body). */
export class JobRefusal extends Error {
  override readonly name = 'JobRefusal';
  constructor(
    readonly status: number,
    readonly body: { message: string } & Record<string, unknown>,
  ) {
    super(body.message);
  }
}

export interface JobContext<P> {
  jobId: string;
  ownerId: number | null;
  params: P;
  /** Reports progress: percent 0–100 and a short text ("Reading rows 40,000"). Cheap to call often. */
  progress(percent: number, text?: string): void;
  /** Aborted when the runner stops: the work must end now (a thread is terminated). */
  signal: AbortSignal;
}

export interface JobKind<P = unknown> {
  kind: string;
  /** A label for the dashboard and the notifications ("Commissioning Plan import"). */
  label: string;
  /**
   * Safe to run again from the start: such a job is resumed after a restart and may be retried from
   * the dashboard. Imports are not (their upload may be gone, and the owner may have moved on).
   */
  idempotent: boolean;
  /** Answers the body of a 200; throws JobRefusal for a 4xx answer. Anything else thrown is a server fault. */
  run(context: JobContext<P>): Promise<unknown>;
  /**
   * The key of its notifications (default `job-<kind>`). The browser opens a page for keys it knows
   * (shared-ui `notificationLink`), so a key may name what the run produced (`body`: its answer).
   */
  notificationKey?(params: P, ok: boolean, body: unknown): string;
  /**
   * How a job that answered 200 turned out, from its answer (default success): a run that found errors,
   * an import that kept warnings, a parse with unreachable nodes. A refusal is an error (a 599 a warning).
   */
  outcome?(body: unknown, params: P): JobTone;
  /** The notification title when it ends (the body is what the caller got); null for none. */
  notification?(outcome: { ok: boolean; tone: JobTone; message: string; body: unknown }, params: P): string | null;
}

/** What a task run in a worker thread (or inline) gets: a database connection of its own and a progress callback. */
export interface TaskContext {
  db: Kysely<Database>;
  dialect: 'sqlite' | 'postgres';
  dataDir: string;
  progress: (percent: number, text?: string) => void;
}
export type Task = (params: never, context: TaskContext) => Promise<unknown>;

/** `JobProgress` hub event: what the owner's console shows while it waits. */
export interface JobProgressEvent {
  id: string;
  kind: string;
  state: JobState;
  progress: number;
  text: string | null;
}
export const JOB_PROGRESS = 'JobProgress';
