import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { RunHistoryPage, RunResponse } from 'contracts';
import { publishJobProgress } from 'shared-auth';
import CpichValidationPage from './cpichvalidation';
import {
  addressNow,
  buttonNamed,
  catchDownloads,
  fakeApi,
  fakeRunFindings,
  fakeSheet,
  chooseSite,
  refusal,
  renderPage,
  rowsOf,
  signIn,
  type Answers,
} from '../../testing/validationKit';

const RESULT: RunResponse = {
  runId: 3,
  file: 'export-3',
  message: 'Cpich validation of LX0001: 2 OK, 1 error.',
  summary: [
    { label: 'OK', count: 2, tone: 'ok' },
    { label: 'WARNING', count: 0, tone: 'warning' },
    { label: 'ERROR', count: 1, tone: 'error' },
  ],
  preview: {
    title: 'Cpich Validation',
    columns: [
      { key: 'cell', label: 'Cell' },
      { key: 'verdict', label: 'Verdict' },
    ],
    rows: [
      { cell: 'LX0001_U1', verdict: 'OK' },
      { cell: 'LX0001_U3', verdict: 'ERROR' },
    ],
    total: 3,
  },
};

const HISTORY: RunHistoryPage = {
  total: 1,
  rows: [
    {
      id: 3,
      user: 'Eva Engineer',
      sites: 'LX0001',
      site: 'LX0001',
      files: '',
      antenna: null,
      lteBands: null,
      runDate: '2026-11-20T10:00:00.000Z',
      message: RESULT.message!,
      outcome: 'OK 2, WARNING 0, ERROR 1',
      hasFile: true,
    },
  ],
};

/** The run's findings as the server lists them: its one ERROR first, then the OK cells. */
const FINDINGS = fakeRunFindings(
  {
    runId: 3,
    user: 'Eva Engineer',
    sites: 'LX0001',
    files: '',
    runDate: '2026-11-20T10:00:00.000Z',
    message: RESULT.message!,
    summary: RESULT.summary,
    sheets: [fakeSheet('Cpich Validation', ['cell', 'verdict'], 3, 'ERROR')],
    hasFile: true,
  },
  {
    'Cpich Validation': [
      { rowNo: 3, verdict: 'ERROR', values: { cell: 'LX0001_U3', verdict: 'ERROR' } },
      { rowNo: 1, verdict: 'OK', values: { cell: 'LX0001_U1', verdict: 'OK' } },
      { rowNo: 2, verdict: 'OK', values: { cell: 'LX0001_U2', verdict: 'OK' } },
    ],
  },
);

function serve(more: Answers = {}) {
  // The history has the run once the run was asked for (whatever it answers).
  let ran = false;
  const runAnswer = more['Validation/RunCpichValidation'] ?? RESULT;
  return fakeApi({
    'Validation/GetLastUtranCellsDate': '2026-11-20T08:00:00.000Z',
    'Validation/GetUtranSites': [
      { value: 'LX0001', text: 'LX0001 – Lisboa 1' },
      { value: 'LX0002', text: 'LX0002 – Lisboa 2' },
    ],
    'Validation/GetCpichValidationHistory': () => (ran ? HISTORY : { rows: [], total: 0 }),
    'Validation/GetCpichValidationExport': { file: 'export-4' },
    'Validation/GetCpichValidationFindings': FINDINGS,
    ...more,
    'Validation/RunCpichValidation': (params: Record<string, unknown>) => {
      ran = true;
      return typeof runAnswer === 'function' ? (runAnswer as (p: Record<string, unknown>) => unknown)(params) : runAnswer;
    },
  });
}

let saved: string[];
beforeEach(() => {
  signIn();
  saved = catchDownloads();
});
afterEach(() => jest.restoreAllMocks());

describe('Cpich Validation', () => {
  test('shows the UTRAN cells date, and Run Validation waits for a site', async () => {
    serve();
    await renderPage(CpichValidationPage);
    expect(await screen.findByText('UTRAN cells date: 20-11-2026 08:00:00')).toBeInTheDocument();
    expect(buttonNamed(/Run Validation/)).toBeDisabled();
    expect(await screen.findByText('No runs yet.')).toBeInTheDocument();
  });

  test("falls back to 'Dump date unavailable!'", async () => {
    serve({ 'Validation/GetLastUtranCellsDate': '' });
    await renderPage(CpichValidationPage);
    expect(await screen.findByText('Dump date unavailable!')).toBeInTheDocument();
  });

  test('runs on the chosen sites as the user, shows the job progress, then the verdicts, every finding worst first and the new history row', async () => {
    let finish: (value: RunResponse) => void = () => undefined;
    const api = serve({
      'Validation/RunCpichValidation': () =>
        new Promise<RunResponse>((resolve) => {
          finish = resolve;
        }),
    });
    await renderPage(CpichValidationPage);
    await chooseSite('LX0001 – Lisboa 1');
    await chooseSite('LX0002 – Lisboa 2');
    await waitFor(() => expect(buttonNamed(/Run Validation/)).toBeEnabled());
    await act(async () => {
      fireEvent.click(buttonNamed(/Run Validation/));
    });
    const call = api.to('Validation/RunCpichValidation')[0]!;
    expect(call.params).toEqual({ sites: 'LX0001,LX0002', userId: 7 });
    expect(call.config).toMatchObject({ skipErrorHandling: true, skipLoading: true });
    expect(screen.getByTestId('run-progress')).toHaveTextContent('Validating…');
    act(() => {
      publishJobProgress({ id: 'job-2', kind: 'validation.neighbours', state: 'running', progress: 90, text: 'Other job' });
      publishJobProgress({ id: 'job-1', kind: 'validation.cpich', state: 'running', progress: 40, text: 'Validating 3 UTRAN cells' });
    });
    expect(await screen.findByText('Validating 3 UTRAN cells')).toBeInTheDocument();
    expect(screen.getByLabelText('Validating progress')).toHaveAttribute('aria-valuenow', '40');

    await act(async () => {
      finish(RESULT);
    });
    expect(await screen.findByText('Cpich validation of LX0001: 2 OK, 1 error.')).toBeInTheDocument();
    expect(screen.getByText('ERROR: 1')).toBeInTheDocument();
    // Every finding, the ERROR first, on the page: nothing downloaded on its own.
    await waitFor(() =>
      expect(rowsOf('Cpich Validation: 3 rows')).toEqual([
        ['ERROR', 'LX0001_U3'],
        ['OK', 'LX0001_U1'],
        ['OK', 'LX0001_U2'],
      ]),
    );
    expect(api.to('Validation/GetCpichValidationFindings').every((c) => c.params?.cpichValidationId === 3)).toBe(true);
    expect(saved).toEqual([]);
    expect(api.to('Validation/GetCpichValidationExport')).toHaveLength(0);
    expect(screen.queryByTestId('run-progress')).toBeNull();
    await waitFor(() => expect(rowsOf('Cpich Validation History')).toHaveLength(1));
    expect(rowsOf('Cpich Validation History')[0]).toEqual(expect.arrayContaining(['Eva Engineer', 'LX0001', 'OK 2, WARNING 0, ERROR 1']));

    // The run's workbook when asked for, and a past run's from the history: both through the export route.
    await act(async () => {
      fireEvent.click(buttonNamed(/Download workbook/));
    });
    await waitFor(() => expect(saved).toEqual(['export-4.xlsx']));
    await act(async () => {
      fireEvent.click(screen.getByLabelText('Download the workbook of run 3'));
    });
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(api.to('Validation/GetCpichValidationExport').map((c) => c.params)).toEqual([{ cpichValidationId: 3 }, { cpichValidationId: 3 }]);
  });

  test('opens the run the address names (?run=3), as a notification links it', async () => {
    const api = serve({ 'Validation/GetCpichValidationHistory': HISTORY });
    await renderPage(CpichValidationPage, '/validation/cpichvalidation?run=3');
    await waitFor(() => expect(rowsOf('Cpich Validation: 3 rows')[0]).toEqual(['ERROR', 'LX0001_U3']));
    expect(screen.getByText('Cpich Validation Result · run 3')).toBeInTheDocument();
    expect(api.to('Validation/RunCpichValidation')).toHaveLength(0);
  });

  test('a history row opens its run', async () => {
    const api = serve({ 'Validation/GetCpichValidationHistory': HISTORY });
    await renderPage(CpichValidationPage, '/validation/cpichvalidation');
    await waitFor(() => expect(rowsOf('Cpich Validation History')).toHaveLength(1));
    expect(screen.queryByTestId('run-result')).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByText('OK 2, WARNING 0, ERROR 1'));
    });
    await waitFor(() => expect(rowsOf('Cpich Validation: 3 rows')[0]).toEqual(['ERROR', 'LX0001_U3']));
    expect(api.to('Validation/GetCpichValidationFindings')[0]!.params).toMatchObject({ cpichValidationId: 3 });
  });

  test('a site without UTRAN cells is a warning, said once inline', async () => {
    serve({ 'Validation/RunCpichValidation': () => Promise.reject(refusal(599, 'No UTRAN cells on LX0002.')) });
    await renderPage(CpichValidationPage);
    await chooseSite('LX0002 – Lisboa 2');
    await act(async () => {
      fireEvent.click(buttonNamed(/Run Validation/));
    });
    const alert = await screen.findByTestId('run-refusal');
    expect(alert).toHaveTextContent('No UTRAN cells on LX0002.');
    expect(alert).toHaveClass('ant-alert-warning');
    expect(screen.queryByTestId('run-result')).toBeNull();
  });

  test('opened with ?site=LX0001,LX0002 both are chosen and run together; removing one writes the address again', async () => {
    const api = serve();
    await renderPage(CpichValidationPage, '/validation/cpichvalidation?site=LX0001,LX0002');
    await waitFor(() => expect(buttonNamed('Run Validation')).toBeEnabled());
    await act(async () => {
      fireEvent.click(buttonNamed('Run Validation'));
    });
    expect(api.to('Validation/RunCpichValidation')[0]!.params).toEqual({ sites: 'LX0001,LX0002', userId: 7 });
    const tagOf = (site: string) =>
      Array.from(document.querySelectorAll<HTMLElement>('.ant-select-selection-item')).find((t) => t.textContent?.startsWith(site))!;
    await act(async () => {
      fireEvent.click(tagOf('LX0002').querySelector('.ant-select-selection-item-remove')!);
    });
    expect(addressNow()).toBe('/validation/cpichvalidation?site=LX0001&run=3');
  });
});
