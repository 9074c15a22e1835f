import { lazy, Suspense } from 'react';
import type { JobProgressBarProps } from './JobProgressBar';

const Bar = lazy(() => import('./JobProgressBar').then((m) => ({ default: m.JobProgressBar })));

/**
 * {@link JobProgressBar} loaded when first shown: a page that shows progress only while a job runs (an
 * export, a planning run) does not carry antd's Progress with its first load. Until the bar is there, an
 * indeterminate one of the same name and its pending text stand in (a small job may end before it loads).
 */
export function LazyJobProgressBar(props: JobProgressBarProps) {
  const standIn = (
    <div data-testid={props.testId} style={{ display: 'flex', flexDirection: 'column', gap: 4, ...props.style }}>
      <div role="progressbar" aria-label={props.label} aria-busy="true" />
      <span>{props.pendingText}</span>
    </div>
  );
  return (
    <Suspense fallback={standIn}>
      <Bar {...props} />
    </Suspense>
  );
}
