import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { RunHistoryPage, RunResponse } from 'contracts';
import { publishJobProgress } from 'shared-auth';
import RanShareNbrRelationsValidationPage from './ranshareNbrRelationsValidation';
import { buttonNamed, catchDownloads, chooseSite, fakeApi, findingsOf, refusal, renderPage, rowsOf, signIn } from '../../testing/validationKit';

const SITES = [
  { value: 'LX0001', text: 'LX0001 – Lisboa Centro' },
  { value: 'LX0002', text: 'LX0002 – Alfama' },
];

const RESULT: RunResponse = {
  runId: 4,
  file: 'export-4',
  message: 'RAN-share validation of LX0001 (MOCN, Vodafone PT shared with NOS): MOCN 1 OK, 1 MISSING_PLMN.',
  summary: [
    { label: 'MOCN OK', count: 1, tone: 'ok' },
    { label: 'MOCN MISSING_PLMN', count: 1, tone: 'error' },
  ],
  preview: {
    title: 'MOCN',
    columns: [
      { key: 'source', label: 'Source Cell' },
      { key: 'target', label: 'Target Cell' },
      { key: 'verdict', label: 'Verdict' },
    ],
    rows: [
      { source: 'LX0001_L800_1', target: 'LX0002_L800_1', verdict: 'MISSING_PLMN' },
      { source: 'LX0001_L800_1', target: 'LX0001_L800_2', verdict: 'OK' },
    ],
    total: 2,
  },
};

const HISTORY_ROW = {
  id: 4,
  user: 'Eva Engineer',
  sites: 'LX0001',
  site: 'LX0001',
  files: '',
  antenna: null,
  lteBands: null,
  runDate: '2026-05-01T10:00:00Z',
  message: RESULT.message!,
  outcome: 'MOCN OK 1, MOCN MISSING_PLMN 1',
  hasFile: true,
};

function serve(run: () => unknown, history: () => RunHistoryPage = () => ({ rows: [], total: 0 })) {
  return fakeApi({
    'Validation/GetRanShareSites': (params: Record<string, unknown>) =>
      SITES.filter((s) => s.text.toLowerCase().includes(String(params.query ?? '').toLowerCase())),
    'Validation/RunRanShareNbrRelationsValidation': run,
    'Validation/GetRanShareValidationHistory': history,
    'Validation/GetRanShareValidationExport': { file: 'export-again' },
    'Validation/GetRanShareValidationFindings': findingsOf(RESULT),
  });
}

let saved: string[];
beforeEach(() => {
  signIn('CellwiseOS', 7);
  saved = catchDownloads();
});
afterEach(() => jest.restoreAllMocks());

describe('RanShare Nbr Relations Validation', () => {
  test('the button is disabled until a site is chosen; a run shows its progress, then the message, verdicts and every finding (nothing downloaded unasked) and refreshes the history', async () => {
    let finish: (value: RunResponse) => void = () => undefined;
    let ran = false;
    const api = serve(
      () =>
        new Promise<RunResponse>((resolve) => {
          finish = resolve;
        }),
      () => (ran ? { rows: [HISTORY_ROW], total: 1 } : { rows: [], total: 0 }),
    );
    await renderPage(RanShareNbrRelationsValidationPage);
    expect(buttonNamed('RanShare Nbr Relations Validation')).toBeDisabled();
    expect(screen.getByText('No runs yet.')).toBeInTheDocument();
    await chooseSite('LX0001 – Lisboa Centro');
    expect(api.to('Validation/GetRanShareSites')[0]!.params).toEqual({ query: '' });
    await waitFor(() => expect(buttonNamed('RanShare Nbr Relations Validation')).toBeEnabled());
    await act(async () => {
      fireEvent.click(buttonNamed('RanShare Nbr Relations Validation'));
    });
    const call = api.to('Validation/RunRanShareNbrRelationsValidation')[0]!;
    expect(call.params).toEqual({ site: 'LX0001', userId: 7 });
    // A refusal is said once, inline: the API client's toast stays off.
    expect(call.config).toMatchObject({ skipErrorHandling: true, skipLoading: true });

    expect(screen.getByText('Validating the shared relations…')).toBeInTheDocument();
    act(() => {
      publishJobProgress({ id: 'job-2', kind: 'validation.healthChecks', state: 'running', progress: 90, text: 'Checking the site' });
      publishJobProgress({ id: 'job-1', kind: 'validation.ranShare', state: 'running', progress: 40, text: 'Validating the shared relations' });
    });
    expect(await screen.findByText('Validating the shared relations')).toBeInTheDocument();
    expect(screen.getByLabelText('Run progress')).toHaveAttribute('aria-valuenow', '40');
    expect(screen.queryByText('Checking the site')).toBeNull();

    await act(async () => {
      ran = true;
      finish(RESULT);
    });
    expect(await screen.findByText(RESULT.message!)).toBeInTheDocument();
    expect(screen.getByText('MOCN MISSING_PLMN: 1')).toBeInTheDocument();
    expect(screen.getByText('MOCN OK: 1')).toBeInTheDocument();
    expect(screen.queryByLabelText('Run progress')).toBeNull();
    await waitFor(() => expect(rowsOf('MOCN: 2 rows')[0]).toEqual(['MISSING_PLMN', 'LX0001_L800_1', 'LX0002_L800_1']));
    expect(saved).toEqual([]);
    await waitFor(() => expect(rowsOf('RanShare Nbr Relations Validation History')).toHaveLength(1));
    expect(rowsOf('RanShare Nbr Relations Validation History')[0]).toEqual(
      expect.arrayContaining(['Eva Engineer', 'LX0001', 'MOCN OK 1, MOCN MISSING_PLMN 1']),
    );

    // A past run's workbook, from the history.
    await act(async () => {
      fireEvent.click(screen.getByLabelText('Download the workbook of run 4'));
    });
    await waitFor(() => expect(api.to('Validation/GetRanShareValidationExport')[0]!.params).toEqual({ runId: 4 }));
    await waitFor(() => expect(saved).toEqual(['export-again.xlsx']));
  });

  test("an unshared site's warning is shown once, inline, and nothing is downloaded", async () => {
    serve(() => Promise.reject(refusal(599, 'Site LX0002 is not shared: no RAN-share relations to validate.')));
    await renderPage(RanShareNbrRelationsValidationPage);
    await chooseSite('LX0002 – Alfama');
    await waitFor(() => expect(buttonNamed('RanShare Nbr Relations Validation')).toBeEnabled());
    await act(async () => {
      fireEvent.click(buttonNamed('RanShare Nbr Relations Validation'));
    });
    const alert = await screen.findByTestId('run-refusal');
    expect(alert).toHaveTextContent('Site LX0002 is not shared: no RAN-share relations to validate.');
    expect(alert).toHaveClass('ant-alert-warning');
    expect(screen.getAllByText('Site LX0002 is not shared: no RAN-share relations to validate.')).toHaveLength(1);
    expect(screen.queryByTestId('run-result')).toBeNull();
    expect(saved).toEqual([]);
  });
});
