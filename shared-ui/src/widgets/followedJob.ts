import { useCallback, useEffect, useRef, useState } from 'react';
import { onJobProgress, type JobProgressEvent } from 'shared-auth';
import { claimJobOutcome, type OutcomeClaim } from '../toasts/jobOutcomes';

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
    async <T>(call: () => Promise<T>): Promise<T> => {
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
