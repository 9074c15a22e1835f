import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { RunResponse } from 'contracts';
import { publishJobProgress } from 'shared-auth';
import HealthChecksPage from './healthChecks';
import {
  addressNow,
  buttonNamed,
  catchDownloads,
  chooseSite,
  fakeApi,
  fakeRunFindings,
  fakeSheet,
  refusal,
  renderPage,
  rowsOf,
  signIn,
} from '../../testing/validationKit';

const RESULT: RunResponse = {
  runId: 9,
  file: 'health-9',
  message: 'Health checks of LX0001: alarms NOK (2 active alarms), radio OK, core OK, 0 neighbour findings.',
  summary: [
    { label: 'Alarms NOK', count: 1, tone: 'error' },
    { label: 'Radio NOK', count: 0, tone: 'ok' },
  ],
  preview: {
    title: 'Summary',
    columns: [
      { key: 'check', label: 'Check' },
      { key: 'status', label: 'Status' },
      { key: 'details', label: 'Details' },
    ],
    rows: [
      { check: 'Alarms', status: 'NOK', details: '1 Critical/Major alarm: Link Failure' },
      { check: 'Radio', status: 'OK', details: 'All radio checks OK' },
    ],
    total: 2,
  },
};

/** The run's sheets as the server lists them: the checks (NOK first), then the CPICH verdicts. */
const FINDINGS = fakeRunFindings(
  {
    runId: 9,
    user: 'Eva Engineer',
    sites: 'LX0001',
    files: '',
    runDate: '2026-11-20T10:00:00.000Z',
    message: RESULT.message!,
    summary: RESULT.summary,
    sheets: [fakeSheet('Summary', ['check', 'status', 'details'], 2, 'NOK', 'status'), fakeSheet('CPICH', ['cell', 'verdict'], 1, 'WARNING')],
    hasFile: true,
  },
  {
    Summary: [
      { rowNo: 1, verdict: 'NOK', values: { check: 'Alarms', status: 'NOK', details: '1 Critical/Major alarm: Link Failure' } },
      { rowNo: 2, verdict: 'OK', values: { check: 'Radio', status: 'OK', details: 'All radio checks OK' } },
    ],
    CPICH: [{ rowNo: 1, verdict: 'WARNING', values: { cell: 'LX0001_U1', verdict: 'WARNING' } }],
  },
);

function serve(run: () => unknown) {
  return fakeApi({
    'Validation/GetSites': [{ value: 'LX0001', text: 'LX0001 – Lisboa Centro' }],
    'Validation/GetHealthChecksExport': run,
    'Validation/GetHealthChecksHistory': { rows: [], total: 0 },
    'Validation/GetHealthChecksFindings': FINDINGS,
    'Validation/GetHealthChecksRunExport': { file: 'health-9' },
  });
}

let saved: string[];
beforeEach(() => {
  signIn('CellwiseOS', 7);
  saved = catchDownloads();
});
afterEach(() => jest.restoreAllMocks());

describe('Health Checks', () => {
  test('Get Health Checks runs for the chosen site as the signed-in user, shows progress, the summary, every sheet with OK/NOK coloured, and the workbook when asked', async () => {
    let finish: (value: RunResponse) => void = () => undefined;
    const api = serve(
      () =>
        new Promise<RunResponse>((resolve) => {
          finish = resolve;
        }),
    );
    await renderPage(HealthChecksPage);
    expect(buttonNamed('Get Health Checks')).toBeDisabled();
    await chooseSite('LX0001 – Lisboa Centro');
    await waitFor(() => expect(buttonNamed('Get Health Checks')).toBeEnabled());
    await act(async () => {
      fireEvent.click(buttonNamed('Get Health Checks'));
    });
    expect(api.to('Validation/GetHealthChecksExport')[0]!.params).toEqual({ siteId: 'LX0001', userId: 7 });
    act(() => publishJobProgress({ id: 'job-3', kind: 'validation.healthChecks', state: 'running', progress: 70, text: 'Writing the workbook' }));
    expect(await screen.findByText('Writing the workbook')).toBeInTheDocument();
    expect(screen.getByLabelText('Run progress')).toHaveAttribute('aria-valuenow', '70');

    await act(async () => finish(RESULT));
    expect(await screen.findByText(RESULT.message!)).toBeInTheDocument();
    expect(screen.getByText('Alarms NOK: 1').closest('.ant-tag')).toHaveClass('ant-tag-error');
    // A zero is nothing to see: 'Radio NOK: 0' is not green.
    expect(screen.getByText('Radio NOK: 0').closest('.ant-tag')).not.toHaveClass('ant-tag-success');
    await waitFor(() => expect(rowsOf('Summary: 2 rows')).toHaveLength(2));
    expect(rowsOf('Summary: 2 rows')[0]).toEqual(['NOK', 'Alarms', '1 Critical/Major alarm: Link Failure']);
    // OK and NOK as every page colours them.
    const statusTag = (text: string) => Array.from(document.querySelectorAll('td .ant-tag')).find((t) => t.textContent === text)!;
    expect(statusTag('NOK')).toHaveClass('ant-tag-red');
    expect(statusTag('OK')).toHaveClass('ant-tag-green');
    await act(async () => {
      fireEvent.click(screen.getByText('CPICH (1)'));
    });
    await waitFor(() => expect(rowsOf('CPICH: 1 row')).toEqual([['WARNING', 'LX0001_U1']]));
    expect(saved).toEqual([]);
    await act(async () => {
      fireEvent.click(buttonNamed(/Download workbook/));
    });
    await waitFor(() => expect(saved).toEqual(['health-9.xlsx']));
    expect(api.to('Validation/GetHealthChecksRunExport')[0]!.params).toEqual({ runId: 9 });
    // The history fetched again after the run.
    await waitFor(() => expect(api.to('Validation/GetHealthChecksHistory').length).toBeGreaterThanOrEqual(2));
  });

  test('no data for the site: the warning inline, nothing downloaded; a server fault reads as an error', async () => {
    let answer = refusal(599, 'No data for site LX0001: no parsed logs and no cells in the dump.');
    serve(() => Promise.reject(answer));
    await renderPage(HealthChecksPage);
    await chooseSite('LX0001 – Lisboa Centro');
    await waitFor(() => expect(buttonNamed('Get Health Checks')).toBeEnabled());
    await act(async () => {
      fireEvent.click(buttonNamed('Get Health Checks'));
    });
    const alert = await screen.findByTestId('run-refusal');
    expect(alert).toHaveTextContent('No data for site LX0001: no parsed logs and no cells in the dump.');
    expect(alert).toHaveClass('ant-alert-warning');
    expect(saved).toEqual([]);

    answer = refusal(500, 'Something went wrong!');
    await act(async () => {
      fireEvent.click(buttonNamed('Get Health Checks'));
    });
    await waitFor(() => expect(screen.getByTestId('run-refusal')).toHaveClass('ant-alert-error'));
    expect(screen.getByTestId('run-refusal')).toHaveTextContent('Something went wrong!');
  });

  test('opened with ?site=LX0001 the site is chosen and runs; a new choice replaces ?site=, other parameters kept', async () => {
    const api = serve(() => RESULT);
    await renderPage(HealthChecksPage, '/validation/healthChecks?site=LX0001');
    await waitFor(() => expect(buttonNamed('Get Health Checks')).toBeEnabled());
    await act(async () => {
      fireEvent.click(buttonNamed('Get Health Checks'));
    });
    expect(api.to('Validation/GetHealthChecksExport')[0]!.params).toEqual({ siteId: 'LX0001', userId: 7 });
    // The run shown is in the address too; choosing the site again keeps it.
    await waitFor(() => expect(addressNow()).toBe('/validation/healthChecks?site=LX0001&run=9'));
    await chooseSite('LX0001 – Lisboa Centro');
    expect(addressNow()).toBe('/validation/healthChecks?site=LX0001&run=9');
  });

  test("a site the operator's list does not hold is said so, and nothing is chosen", async () => {
    serve(() => RESULT);
    await renderPage(HealthChecksPage, '/validation/healthChecks?site=PT0009');
    expect(await screen.findByTestId('site-param-notice')).toHaveTextContent(
      "Site PT0009 is not among the current operator's sites for this page, so it is not selected.",
    );
    expect(buttonNamed('Get Health Checks')).toBeDisabled();
  });
});
