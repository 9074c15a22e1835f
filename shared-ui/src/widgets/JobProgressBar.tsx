import { Flex, Progress, theme } from 'antd';
import { type CSSProperties } from 'react';
import { type JobProgressEvent } from 'shared-auth';
import { Note } from './Note';

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
      <Note>{job?.text ?? pendingText}</Note>
    </Flex>
  );
}
