import { Flex, Progress, Typography, theme } from 'antd';
import { useCallback, useEffect, useRef, useState, type CSSProperties } from 'react';
import { onJobProgress, type JobProgressEvent } from 'shared-auth';
import { claimJobOutcome, type OutcomeClaim } from '../toasts/jobOutcomes';

export interface JobProgressBarProps {
  /** The followed job's latest `JobProgress` event; null until it first reports. */
  job: JobProgressEvent | null;
  /** The bar's accessible name, e.g. 'Import progress'. */
  label: string;
  /** Said under the bar until the job reports a text of its own, e.g. 'Importing…'. */
  pendingText: string;
  /** E.g. 'run-progress', for tests that watch the whole stage. */
  testId?: string;
  style?: CSSProperties;
}

/**
 * A job's stage: its bar and text ('Reading rows 40,000 / 100,000') from its `JobProgress` events, or an
 * indeterminate bar and `pendingText` until the first one arrives (a small job may finish before it).
 */
export function JobProgressBar({ job, label, pendingText, testId, style }: JobProgressBarProps) {
  const { token } = theme.useToken();
  const running = job === null || job.state === 'queued' || job.state === 'running';
  return (
    <Flex vertical gap={4} style={style} data-testid={testId}>
      {job ? (
        <Progress percent={Math.round(job.progress)} size="small" status={running ? 'active' : 'normal'} aria-label={label} />
      ) : (
        // Indeterminate: a moving bar without a value (no aria-valuenow), laid out like the determinate one.
        <Progress
          percent={100}
          showInfo={false}
          size="small"
          status="active"
          strokeColor={token.colorInfoBorder}
          aria-label={label}
          aria-valuenow={undefined}
        />
      )}
      <Typography.Text type="secondary">{job?.text ?? pendingText}</Typography.Text>
    </Flex>
  );
}

export interface FollowedJob {
  /** The latest event of the job the pending call started; null before its first report and once the call ends. */
  job: JobProgressEvent | null;
  /** Runs the call, taking the first job of the kind to report while it is pending as the call's own. */
  follow: <T>(call: () => Promise<T>) => Promise<T>;
}

/**
 * Follows the job a call starts (e.g. kind 'tracking.import'): from the call's start to its answer, the
 * first job of that kind to report is taken as this call's (one call at a time per page or dialog).
 * The page shows the job's outcome, so the hub's notification of it is not toasted again
 * (`claimJobOutcome`) while the page is there. A null kind follows nothing and claims nothing.
 */
export function useFollowedJob(kind: string | null): FollowedJob {
  const [job, setJob] = useState<JobProgressEvent | null>(null);
  const claims = useRef(new Set<OutcomeClaim>());
  useEffect(() => {
    const held = claims.current;
    // Gone from the screen: whatever the job ends with is for the hub's toast to say.
    return () => {
      for (const claim of held) claim.release();
      held.clear();
    };
  }, []);
  const follow = useCallback(
    async <T,>(call: () => Promise<T>): Promise<T> => {
      setJob(null);
      if (kind === null) return call();
      let followed: string | null = null;
      const stop = onJobProgress((event) => {
        followed ??= event.id;
        if (event.id === followed) setJob(event);
      }, kind);
      const claim = claimJobOutcome(kind);
      claims.current.add(claim);
      try {
        return await call();
      } finally {
        stop();
        setJob(null);
        claim.settle();
      }
    },
    [kind],
  );
  return { job, follow };
}
