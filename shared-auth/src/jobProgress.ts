import { useEffect, useState } from 'react';
import type { JobStateName } from 'contracts';

/** Hub event the API pushes to a job's owner while the job runs (the API's `JOB_PROGRESS`). */
export const JOB_PROGRESS_EVENT = 'JobProgress';

/** Payload of `JobProgress` (the API's `JobProgressEvent`), e.g. kind `tracking.import`, text 'Reading rows 40,000 / 100,000'. */
export interface JobProgressEvent {
  id: string;
  kind: string;
  state: JobStateName;
  /** 0 to 100. */
  progress: number;
  text: string | null;
}

export type JobProgressListener = (event: JobProgressEvent) => void;

const listeners = new Set<JobProgressListener>();

function isJobProgressEvent(value: unknown): value is JobProgressEvent {
  if (!value || typeof value !== 'object') return false;
  const e = value as Record<string, unknown>;
  return (
    typeof e.id === 'string' &&
    typeof e.kind === 'string' &&
    typeof e.state === 'string' &&
    typeof e.progress === 'number' &&
    Number.isFinite(e.progress) &&
    (e.text === null || e.text === undefined || typeof e.text === 'string')
  );
}

/**
 * Hands one `JobProgress` event to every subscriber. Only the shell calls it, from its one hub
 * connection (docs/architecture.md#federation-rules: the shell owns providers); remotes and widgets subscribe and never connect.
 * A malformed payload is dropped.
 */
export function publishJobProgress(event: unknown): void {
  if (!isJobProgressEvent(event)) return;
  const clean: JobProgressEvent = { ...event, progress: Math.max(0, Math.min(100, event.progress)), text: event.text ?? null };
  for (const listener of [...listeners]) {
    try {
      listener(clean);
    } catch {
      // One listener's fault must not keep the event from the others.
    }
  }
}

/** Follows job progress, optionally of one kind only (e.g. 'tracking.import'); returns the unsubscribe. */
export function onJobProgress(listener: JobProgressListener, kind?: string): () => void {
  const wrapped: JobProgressListener = kind === undefined ? listener : (event) => event.kind === kind && listener(event);
  listeners.add(wrapped);
  return () => void listeners.delete(wrapped);
}

/** The latest `JobProgress` event (of `kind`, if given) since the component mounted, or null. */
export function useJobProgress(kind?: string): JobProgressEvent | null {
  const [latest, setLatest] = useState<JobProgressEvent | null>(null);
  useEffect(() => onJobProgress(setLatest, kind), [kind]);
  return latest;
}
