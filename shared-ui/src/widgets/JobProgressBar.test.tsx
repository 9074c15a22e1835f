import { act, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { publishJobProgress } from 'shared-auth';
import { useFollowedJob, type FollowedJob } from './followedJob';
import { JobProgressBar } from './JobProgressBar';
import { LazyJobProgressBar } from './LazyJobProgressBar';

/** Renders the bar of the hook's job and hands the hook to the test. */
function Harness({ onReady }: { onReady: (hook: FollowedJob) => void }) {
  const hook = useFollowedJob('validation.cpich');
  useEffect(() => {
    onReady(hook);
  }, [hook, onReady]);
  return <JobProgressBar job={hook.job} label="Run progress" pendingText="Validating…" testId="run-progress" />;
}

describe('JobProgressBar and useFollowedJob', () => {
  test('an indeterminate bar until the call’s job reports; then that job only (first of the kind), until the call ends', async () => {
    let hook: FollowedJob | undefined;
    render(<Harness onReady={(h) => (hook = h)} />);
    expect(screen.getByRole('progressbar', { name: 'Run progress' })).not.toHaveAttribute('aria-valuenow');
    expect(screen.getByTestId('run-progress')).toHaveTextContent('Validating…');

    // Before the call nothing is followed.
    act(() => publishJobProgress({ id: 'job-0', kind: 'validation.cpich', state: 'running', progress: 10, text: 'Earlier run' }));
    expect(screen.queryByText('Earlier run')).toBeNull();

    let answer!: (value: string) => void;
    let pending!: Promise<string>;
    act(() => {
      pending = hook!.follow(() => new Promise<string>((resolve) => (answer = resolve)));
    });
    act(() => {
      publishJobProgress({ id: 'job-9', kind: 'validation.neighbours', state: 'running', progress: 90, text: 'Other kind' });
      publishJobProgress({ id: 'job-1', kind: 'validation.cpich', state: 'running', progress: 40, text: 'Validating 3 UTRAN cells' });
      publishJobProgress({ id: 'job-2', kind: 'validation.cpich', state: 'running', progress: 80, text: 'Someone else’s run' });
    });
    expect(screen.getByText('Validating 3 UTRAN cells')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Run progress' })).toHaveAttribute('aria-valuenow', '40');

    await act(async () => {
      answer('done');
      await expect(pending).resolves.toBe('done');
    });
    expect(screen.getByTestId('run-progress')).toHaveTextContent('Validating…');
    act(() => publishJobProgress({ id: 'job-1', kind: 'validation.cpich', state: 'succeeded', progress: 100, text: 'After the answer' }));
    expect(screen.queryByText('After the answer')).toBeNull();
  });
});

describe('LazyJobProgressBar', () => {
  test('stands in with an indeterminate bar of the same name and text until the bar has loaded, then shows the job', async () => {
    const job = { id: 'job-1', kind: 'monitoring.parse', state: 'running' as const, progress: 40, text: 'Reading LX0001.log' };
    render(<LazyJobProgressBar job={job} label="Parse progress" pendingText="Parsing…" testId="parse-progress" />);
    // At once, before the bar's code is there: a small job may end before it loads.
    expect(screen.getByRole('progressbar', { name: 'Parse progress' })).not.toHaveAttribute('aria-valuenow');
    expect(screen.getByTestId('parse-progress')).toHaveTextContent('Parsing…');
    expect(await screen.findByText('Reading LX0001.log')).toBeVisible();
    expect(screen.getByRole('progressbar', { name: 'Parse progress' })).toHaveAttribute('aria-valuenow', '40');
  });
});
