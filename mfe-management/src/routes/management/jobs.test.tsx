import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { JobDetails, JobRow, JobsPage } from 'contracts';
import { api, type ApiResponse } from 'shared-auth';
import { ConsoleProviders } from 'shared-ui';
import JobsDashboardPage, { formatDuration, REFRESH_MS } from './jobs';

const at = (seconds: number) => new Date(Date.UTC(2026, 2, 5, 10, 0, seconds)).toISOString();

function job(id: string, state: JobRow['state'], extra: Partial<JobRow> = {}): JobRow {
  return {
    id,
    kind: 'tracking.import',
    label: 'Tracking import',
    ownerId: 1,
    owner: 'Ana Admin',
    operatorId: 1,
    operator: 'Vodafone PT',
    state,
    progress: 0,
    progressText: null,
    createdAt: at(0),
    startedAt: state === 'queued' ? null : at(1),
    finishedAt: state === 'queued' || state === 'running' ? null : at(3),
    durationMs: state === 'queued' ? null : 2000,
    error: null,
    outcome: null,
    attempts: state === 'queued' ? 0 : 1,
    retryable: state === 'failed' || state === 'cancelled',
    cancellable: state === 'queued',
    ...extra,
  };
}

const answer = <T,>(data: T) => Promise.resolve({ data } as ApiResponse<T>);

/** The API as the page sees it: answers by path, records the list queries and what was posted. */
function fakeApi(rows: () => JobRow[]) {
  const listed: Array<Record<string, unknown>> = [];
  const posted: Array<{ url: string; body: unknown }> = [];
  jest.spyOn(api, 'get').mockImplementation(((url: string, config?: { params?: Record<string, unknown> }) => {
    if (url === 'Jobs/GetJobs') {
      listed.push(config?.params ?? {});
      const page: JobsPage = { rows: rows(), total: rows().length, kinds: [{ kind: 'tracking.import', label: 'Tracking import' }] };
      return answer(page);
    }
    if (url === 'Jobs/GetJob') {
      const found = rows().find((r) => r.id === config?.params?.id)!;
      const details: JobDetails = { job: found, params: { dataSet: 'commissioningPlan' }, outcome: { status: 400, body: { message: 'Row 4 is wrong.' } } };
      return answer(details);
    }
    return Promise.reject(new Error(`unexpected GET ${url}`));
  }) as never);
  jest.spyOn(api, 'post').mockImplementation((url: string, body?: unknown) => {
    posted.push({ url, body });
    return answer({ message: 'Job queued again.' });
  });
  return { listed, posted };
}

function renderPage() {
  render(
    <ConsoleProviders>
      <MemoryRouter>
        <JobsDashboardPage />
      </MemoryRouter>
    </ConsoleProviders>,
  );
}

// Generous: the first page arrives after the table's own lazy parts load, slow on a loaded machine.
const rowOf = async (text: string) => (await screen.findByText(text, {}, { timeout: 15_000 })).closest('tr') as HTMLElement;

afterEach(() => {
  jest.restoreAllMocks();
  jest.useRealTimers();
});

describe('the job dashboard page', () => {
  test('durations read as people say them', () => {
    expect([850, 1600, 42_000, 125_000, 3_780_000].map(formatDuration)).toEqual(['850 ms', '1.6 s', '42 s', '2 min 5 s', '1 h 3 min']);
    expect(formatDuration(null)).toBe('');
  });

  test('shows each job with its state, what a finished run found, its operator and the actions the API allows', async () => {
    fakeApi(() => [
      job('a', 'succeeded', { label: 'Cpich validation', outcome: 'error' }),
      job('b', 'succeeded', { label: 'Log parsing', outcome: 'warning' }),
      job('c', 'failed', { label: 'Network dump import', owner: null, operator: null, error: 'Bad dump.' }),
      job('d', 'queued', { label: 'Tracking export' }),
    ]);
    renderPage();
    const errors = await rowOf('Cpich validation');
    expect(within(errors).getByText('Errors found')).toBeTruthy();
    expect(within(await rowOf('Log parsing')).getByText('Warnings')).toBeTruthy();
    const failed = await rowOf('Network dump import');
    expect(within(failed).getByText('system')).toBeTruthy();
    expect(within(failed).getByText('Failed')).toBeTruthy();
    expect(within(failed).queryByText('Errors found')).toBeNull();
    expect(within(failed).getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(within(await rowOf('Tracking export')).getByRole('button', { name: 'Cancel' })).toBeTruthy();
    expect(within(errors).getByText('Vodafone PT')).toBeTruthy();
    expect(within(errors).queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  test('asks again every 3 s while a job is running, and stops once nothing is under way', async () => {
    jest.useFakeTimers();
    let state: JobRow['state'] = 'running';
    const { listed } = fakeApi(() => [job('r', state, { progress: 45, progressText: 'Reading rows' })]);
    renderPage();
    await act(async () => {
      await jest.advanceTimersByTimeAsync(10);
    });
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('45');
    const first = listed.length;
    await act(async () => {
      await jest.advanceTimersByTimeAsync(REFRESH_MS + 10);
    });
    expect(listed.length).toBe(first + 1);
    state = 'succeeded';
    await act(async () => {
      await jest.advanceTimersByTimeAsync(REFRESH_MS + 10);
    });
    const settled = listed.length;
    await act(async () => {
      await jest.advanceTimersByTimeAsync(3 * REFRESH_MS);
    });
    expect(listed.length).toBe(settled);
  });

  test('Retry asks first and sends the job id; the details show the parameters and outcome', async () => {
    const { posted } = fakeApi(() => [job('f', 'failed', { error: 'Row 4 is wrong.' })]);
    renderPage();
    fireEvent.click(within(await rowOf('Tracking import')).getByRole('button', { name: 'Details of Tracking import' }));
    // Found by its title: in tests antd gives every element the same generated id, so aria-labelledby names nothing.
    const drawer = await waitFor(
      () => {
        const open = document.querySelector<HTMLElement>('.ant-drawer-open [role="dialog"]');
        expect(open?.querySelector('.ant-drawer-title')?.textContent).toBe('Tracking import');
        return open!;
      },
      { timeout: 10_000 },
    );
    expect(await within(drawer).findByText('400', {}, { timeout: 10_000 })).toBeTruthy();
    expect(within(drawer).getByText(/"dataSet": "commissioningPlan"/)).toBeTruthy();
    fireEvent.click(within(drawer).getByRole('button', { name: 'Retry' }));
    const confirm = (await screen.findAllByText('Retry job?', {}, { timeout: 10_000 }))[0]!.closest<HTMLElement>('.ant-modal')!;
    expect(posted).toEqual([]);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(posted).toEqual([{ url: 'Jobs/RetryJob', body: { id: 'f' } }]));
  });
});
