import type { JobKind, JobOutcome, JobTone } from './model';

/** The verdict counts of a run's summary, as `RunSummaryItem` carries them. */
interface SummaryCount {
  label?: string;
  count: number;
  tone: string;
}

/** A run's outcome from its summary: error when any error count is above 0, warning when any warning count is, else success. */
export function runOutcome(summary: readonly SummaryCount[]): JobTone {
  if (summary.some((item) => item.tone === 'error' && item.count > 0)) return 'error';
  if (summary.some((item) => item.tone === 'warning' && item.count > 0)) return 'warning';
  return 'success';
}

function isSummaryCount(item: unknown): item is SummaryCount {
  return item !== null && typeof item === 'object' && typeof (item as SummaryCount).count === 'number' && typeof (item as SummaryCount).tone === 'string';
}

/**
 * The outcome of a run job from its answer (`RunResponse`): every run kind (planning, validations,
 * health checks, optimisation) is told by this one reading of its summary. An answer without a summary
 * found nothing to judge: success.
 */
export function runAnswerOutcome(body: unknown): JobTone {
  const summary = body !== null && typeof body === 'object' ? (body as { summary?: unknown }).summary : undefined;
  return Array.isArray(summary) ? runOutcome(summary.filter(isSummaryCount)) : 'success';
}

/** The run id of a run job's answer, when it recorded one. */
export function runIdOf(body: unknown): number | null {
  const runId = body !== null && typeof body === 'object' ? (body as { runId?: unknown }).runId : undefined;
  return typeof runId === 'number' && Number.isInteger(runId) ? runId : null;
}

/**
 * The notification key of a run job: `<prefix>-run-<runId>` opens that run's result (shared-ui
 * `notificationLink`); the bare prefix when no run was recorded (a refusal).
 */
export function runNotificationKey(prefix: string, body: unknown): string {
  const runId = runIdOf(body);
  return runId === null ? prefix : `${prefix}-run-${runId}`;
}

/**
 * A job that did not answer 200: a 599 is the specification's warning (e.g. no data for the site),
 * anything else an error.
 */
export function refusalOutcome(status: number): JobTone {
  return status === 599 ? 'warning' : 'error';
}

/**
 * What a finished job's notification (and the job dashboard) says of it: a refusal is an error (a 599 a
 * warning); an answer is what its kind reads in it (a run's summary, an import's warnings), success when
 * the kind does not say. An answer the kind cannot read is a warning — never a success it may not be —
 * and `misread` hears why.
 */
export function jobTone(kind: Pick<JobKind<never>, 'outcome'> | undefined, outcome: JobOutcome, params: unknown, misread?: (error: unknown) => void): JobTone {
  if (outcome.status !== 200) return refusalOutcome(outcome.status);
  if (!kind?.outcome) return 'success';
  try {
    return kind.outcome(outcome.body, params as never);
  } catch (error) {
    misread?.(error);
    return 'warning';
  }
}
