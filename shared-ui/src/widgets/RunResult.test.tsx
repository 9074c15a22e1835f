import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { RunFindingRow, RunHistoryPage, RunView } from 'contracts';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { catchDownloads, fakeApi, fakeRunFindings, fakeSheet, refusal, rowsOf, signIn } from '../testing';
import { ConsoleProviders } from './ConsoleProviders';
import { RunHistoryTable, RunResultCard, useShownRun } from './RunResult';

const ROUTES = { findingsPath: 'Validation/GetCpichValidationFindings', exportPath: 'Validation/GetCpichValidationExport', idParam: 'cpichValidationId' };

const RUN: RunView = {
  runId: 42,
  user: 'Eva Engineer',
  sites: 'LX0001',
  files: '',
  runDate: '2026-11-20T10:00:00.000Z',
  message: 'Cpich validation of LX0001: 29 OK, 1 error.',
  summary: [
    { label: 'OK', count: 29, tone: 'ok' },
    { label: 'WARNING', count: 0, tone: 'warning' },
    { label: 'ERROR', count: 1, tone: 'error' },
    { label: 'Alarms NOK', count: 0, tone: 'ok' },
  ],
  sheets: [fakeSheet('Cpich Validation', ['cell', 'verdict'], 30, 'ERROR'), fakeSheet('Notes', ['note'], 1, null, null)],
  hasFile: true,
};

/** As the server lists them: the ERROR (the sheet's last row) first, then the OK cells in sheet order. */
const CPICH_ROWS: RunFindingRow[] = [
  { rowNo: 30, verdict: 'ERROR', values: { cell: 'LX0001_U99', verdict: 'ERROR' } },
  ...Array.from({ length: 29 }, (_, i) => ({ rowNo: i + 1, verdict: 'OK', values: { cell: `LX0001_U${String(i + 1).padStart(2, '0')}`, verdict: 'OK' } })),
];

const serve = () =>
  fakeApi({
    'Validation/GetCpichValidationFindings': fakeRunFindings(RUN, {
      'Cpich Validation': CPICH_ROWS,
      Notes: [{ rowNo: 1, verdict: null, values: { note: 'read me' } }],
    }),
    'Validation/GetCpichValidationExport': { file: 'export-9' },
  });

const tagOf = (text: string) => screen.getByText(text).closest('.ant-tag')!;

beforeEach(() => signIn());
afterEach(() => jest.restoreAllMocks());

describe('RunResultCard', () => {
  // The card loads when first shown (the page's first load does without it): hence the first findBy.
  test('shows the verdict counts by tone, a zero neutral whatever its tone', async () => {
    serve();
    render(<RunResultCard runId={42} routes={ROUTES} title="Cpich Validation Result" />);
    expect(await screen.findByText('Cpich validation of LX0001: 29 OK, 1 error.')).toBeInTheDocument();
    expect(tagOf('OK: 29')).toHaveClass('ant-tag-success');
    expect(tagOf('ERROR: 1')).toHaveClass('ant-tag-error');
    // 'NOK: 0' and 'WARNING: 0' are nothing to see: neither green nor amber.
    for (const zero of ['WARNING: 0', 'Alarms NOK: 0']) {
      expect(tagOf(zero)).not.toHaveClass('ant-tag-success');
      expect(tagOf(zero)).not.toHaveClass('ant-tag-warning');
      expect(tagOf(zero)).not.toHaveClass('ant-tag-error');
    }
  });

  test('lists every finding in the shared table as the server orders them (worst first), pages on, and switches sheets', async () => {
    const api = serve();
    render(<RunResultCard runId={42} routes={ROUTES} />);
    await waitFor(() => expect(rowsOf('Cpich Validation: 30 rows')).toHaveLength(10));
    expect(rowsOf('Cpich Validation: 30 rows')[0]).toEqual(['ERROR', 'LX0001_U99']);
    expect(
      screen
        .getAllByText('ERROR')
        .find((e) => e.closest('td'))!
        .closest('.ant-tag'),
    ).toHaveClass('ant-tag-red');
    // No order of its own: the server's default is worst first.
    const pageCalls = api.to('Validation/GetCpichValidationFindings').filter((c) => c.params?.sheet === 'Cpich Validation');
    expect(pageCalls[0]!.params).toEqual({ cpichValidationId: 42, sheet: 'Cpich Validation', page: 1, size: 10 });

    await act(async () => {
      fireEvent.click(screen.getByTitle('3'));
    });
    await waitFor(() => expect(rowsOf('Cpich Validation: 30 rows')[9]).toEqual(['OK', 'LX0001_U29']));

    await act(async () => {
      fireEvent.click(screen.getByText('Notes (1)'));
    });
    await waitFor(() => expect(rowsOf('Notes: 1 row')).toEqual([['read me']]));
  });

  test('downloads the workbook only when asked, through the kind’s export route', async () => {
    const saved = catchDownloads();
    const api = serve();
    render(<RunResultCard runId={42} routes={ROUTES} />);
    await screen.findByText('Cpich validation of LX0001: 29 OK, 1 error.');
    expect(api.to('Validation/GetCpichValidationExport')).toHaveLength(0);
    expect(saved).toEqual([]);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /Download workbook/ }));
    });
    await waitFor(() => expect(saved).toEqual(['export-9.xlsx']));
    expect(api.to('Validation/GetCpichValidationExport')[0]!.params).toEqual({ cpichValidationId: 42 });
  });

  test('a run it cannot find says so', async () => {
    fakeApi({
      'Validation/GetCpichValidationFindings': () => Promise.reject(refusal(404, 'Run not found.')),
    });
    render(<RunResultCard runId={7} routes={ROUTES} />);
    expect(await screen.findByText('Run 7: Run not found.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });
});

const HISTORY: RunHistoryPage = {
  total: 1,
  rows: [
    {
      id: 42,
      user: 'Eva Engineer',
      sites: 'LX0001',
      site: 'LX0001',
      files: '',
      antenna: null,
      lteBands: null,
      runDate: '2026-11-20T10:00:00.000Z',
      message: RUN.message,
      outcome: 'OK 29, WARNING 0, ERROR 1',
      hasFile: true,
    },
  ],
};

/** A page as the remotes write it: the run of `?run=` shown above its history. */
function Page() {
  const [runId, show] = useShownRun();
  const location = useLocation();
  return (
    <>
      <output data-testid="address">{location.search}</output>
      {runId !== null && <RunResultCard runId={runId} routes={ROUTES} />}
      <RunHistoryTable caption="History" historyPath="Validation/GetCpichValidationHistory" routes={ROUTES} fields={['user', 'sites']} onOpen={show} />
    </>
  );
}

const renderPage = (address: string) =>
  render(
    <ConsoleProviders>
      <MemoryRouter initialEntries={[address]}>
        <Page />
      </MemoryRouter>
    </ConsoleProviders>,
  );

describe('a run shown again', () => {
  const serveAll = () => fakeApi({ ...serveAnswers(), 'Validation/GetCpichValidationHistory': HISTORY });
  const serveAnswers = () => ({
    'Validation/GetCpichValidationFindings': fakeRunFindings(RUN, { 'Cpich Validation': CPICH_ROWS }),
    'Validation/GetCpichValidationExport': { file: 'export-9' },
  });

  test('?run=<id> opens that run', async () => {
    const api = serveAll();
    renderPage('/validation/cpichvalidation?run=42');
    await waitFor(() => expect(rowsOf('Cpich Validation: 30 rows')[0]).toEqual(['ERROR', 'LX0001_U99']));
    expect(api.to('Validation/GetCpichValidationFindings').every((c) => c.params?.cpichValidationId === 42)).toBe(true);
  });

  test('an address without a run, or with one that is no run id, shows no result', async () => {
    const api = serveAll();
    renderPage('/validation/cpichvalidation?run=abc');
    await waitFor(() => expect(rowsOf('History')).toHaveLength(1));
    expect(screen.queryByTestId('run-result')).toBeNull();
    expect(api.to('Validation/GetCpichValidationFindings')).toHaveLength(0);
  });

  test('a click on a history row opens its run and names it in the address', async () => {
    serveAll();
    renderPage('/validation/cpichvalidation');
    await waitFor(() => expect(rowsOf('History')).toHaveLength(1));
    await act(async () => {
      fireEvent.click(screen.getByText('OK 29, WARNING 0, ERROR 1'));
    });
    expect(screen.getByTestId('address')).toHaveTextContent('?run=42');
    await waitFor(() => expect(rowsOf('Cpich Validation: 30 rows')[0]).toEqual(['ERROR', 'LX0001_U99']));
  });

  test("its Open button (reachable from the keyboard) opens it, and the row's download stays a download", async () => {
    const saved = catchDownloads();
    serveAll();
    renderPage('/validation/cpichvalidation');
    const download = await screen.findByLabelText('Download the workbook of run 42');
    await act(async () => {
      fireEvent.click(download);
    });
    await waitFor(() => expect(saved).toEqual(['export-9.xlsx']));
    expect(screen.getByTestId('address')).toHaveTextContent('');
    await act(async () => {
      fireEvent.click(screen.getByLabelText('Open run 42'));
    });
    expect(screen.getByTestId('address')).toHaveTextContent('?run=42');
    expect(await screen.findByText('Cpich validation of LX0001: 29 OK, 1 error.')).toBeInTheDocument();
  });
});
