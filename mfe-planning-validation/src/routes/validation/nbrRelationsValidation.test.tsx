import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RunHistoryPage, RunResponse } from 'contracts';
import { publishJobProgress } from 'shared-auth';
import NbrRelationsValidationPage from './nbrRelationsValidation';
import {
  addressNow,
  buttonNamed,
  catchDownloads,
  fakeApi,
  chooseSite,
  findingsOf,
  refusal,
  renderPage,
  rowsOf,
  signIn,
  type Answers,
} from '../../testing/validationKit';

const RESULT: RunResponse = {
  runId: 8,
  file: 'export-8',
  message: 'Neighbour relations of LX0001: 2 OK, 1 missing, 1 extra.',
  summary: [
    { label: 'OK', count: 2, tone: 'ok' },
    { label: 'MISSING', count: 1, tone: 'error' },
    { label: 'WRONG', count: 0, tone: 'error' },
    { label: 'EXTRA', count: 1, tone: 'warning' },
  ],
  preview: {
    title: 'Relations',
    columns: [
      { key: 'source', label: 'Source Cell' },
      { key: 'target', label: 'Target Cell' },
      { key: 'verdict', label: 'Verdict' },
    ],
    rows: [
      { source: 'LX0001_L1', target: 'LX0001_L2', verdict: 'OK' },
      { source: 'LX0001_L1', target: 'LX0002_L1', verdict: 'MISSING' },
    ],
    total: 4,
  },
};

const HISTORY: RunHistoryPage = {
  total: 1,
  rows: [
    {
      id: 8,
      user: 'Eva Engineer',
      sites: 'LX0001',
      site: 'LX0001',
      files: 'planned.xlsx',
      antenna: null,
      lteBands: null,
      runDate: '2026-11-20T10:00:00.000Z',
      message: RESULT.message!,
      outcome: 'OK 2, MISSING 1, WRONG 0, EXTRA 1',
      hasFile: true,
    },
  ],
};

function serve(more: Answers = {}) {
  // The history has the run once the run was asked for (whatever it answers).
  let ran = false;
  const runAnswer = more['Validation/RunNbrRelationsValidation'] ?? RESULT;
  return fakeApi({
    'Validation/GetLastNbrRelationsDate': '',
    'Validation/GetSites': [{ value: 'LX0001', text: 'LX0001 – Lisboa 1' }],
    'Validation/GetNbrRelationsValidationHistory': () => (ran ? HISTORY : { rows: [], total: 0 }),
    'Validation/GetNbrRelationsTemplate': { file: 'template-1' },
    'File/Upload': { uploadId: 'u-1', name: 'planned.xlsx', size: 2 },
    'File/UploadMultiple': { uploads: [{ uploadId: 'u-1' }, { uploadId: 'u-2' }] },
    'Validation/GetNbrRelationsValidationFindings': findingsOf(RESULT),
    ...more,
    'Validation/RunNbrRelationsValidation': (params: Record<string, unknown>) => {
      ran = true;
      return typeof runAnswer === 'function' ? (runAnswer as (p: Record<string, unknown>) => unknown)(params) : runAnswer;
    },
  });
}

const xlsx = (name: string, size = 2) => {
  const file = new File(['PK'], name);
  Object.defineProperty(file, 'size', { value: size });
  return file;
};
const choose = (...files: File[]) => fireEvent.change(document.querySelector('input[type="file"]')!, { target: { files } });

let saved: string[];
beforeEach(() => {
  signIn();
  saved = catchDownloads();
});
afterEach(() => jest.restoreAllMocks());

describe('Nbr Relations Validation', () => {
  test("falls back to 'Dump date unavailable!', downloads the template, and sends nothing before a site is chosen", async () => {
    const api = serve();
    await renderPage(NbrRelationsValidationPage);
    expect(await screen.findByText('Dump date unavailable!')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(buttonNamed(/Download template/));
    });
    await waitFor(() => expect(saved).toEqual(['template-1.xlsx']));
    expect(api.to('File/Download')[0]!.params).toEqual({ file: 'template-1' });
    choose(xlsx('planned.xlsx'));
    expect(await screen.findByText('planned.xlsx')).toBeInTheDocument();
    expect(buttonNamed(/Upload and validate/)).toBeDisabled();
    choose(xlsx('notes.csv'));
    expect(await screen.findByText('File notes.csv is not a .xlsx file.')).toBeInTheDocument();
  });

  test('uploads the workbooks, runs on the site as the user with the upload ids while showing the job, then the verdicts and the history row', async () => {
    let finish: (value: RunResponse) => void = () => undefined;
    const api = serve({
      'Validation/RunNbrRelationsValidation': () =>
        new Promise<RunResponse>((resolve) => {
          finish = resolve;
        }),
    });
    await renderPage(NbrRelationsValidationPage);
    await chooseSite('LX0001 – Lisboa 1');
    choose(xlsx('planned.xlsx'), xlsx('ericsson.xlsx'));
    await waitFor(() => expect(buttonNamed(/Upload and validate/)).toBeEnabled());
    await act(async () => {
      fireEvent.click(buttonNamed(/Upload and validate/));
    });
    await waitFor(() => expect(api.to('Validation/RunNbrRelationsValidation')).toHaveLength(1));
    const upload = api.to('File/UploadMultiple')[0]!;
    expect((upload.body as FormData).getAll('files').map((f) => (f as File).name)).toEqual(['planned.xlsx', 'ericsson.xlsx']);
    expect(api.to('Validation/RunNbrRelationsValidation')[0]!.params).toEqual({ site: 'LX0001', userId: 7, filesPath: 'u-1,u-2' });
    act(() => {
      publishJobProgress({ id: 'job-1', kind: 'validation.neighbours', state: 'running', progress: 60, text: 'Validating 12 planned relations' });
    });
    expect(await screen.findByText('Validating 12 planned relations')).toBeInTheDocument();
    await act(async () => {
      finish(RESULT);
    });
    expect(await screen.findByText('Neighbour relations of LX0001: 2 OK, 1 missing, 1 extra.')).toBeInTheDocument();
    expect(screen.getByText('MISSING: 1')).toBeInTheDocument();
    await waitFor(() => expect(rowsOf('Relations: 2 rows')[1]).toEqual(['MISSING', 'LX0001_L1', 'LX0002_L1']));
    // Shown, not downloaded: the workbook waits for the user's click.
    expect(saved).toEqual([]);
    await waitFor(() => expect(rowsOf('Nbr Relations Validation History')).toHaveLength(1));
    expect(rowsOf('Nbr Relations Validation History')[0]).toEqual(expect.arrayContaining(['Eva Engineer', 'LX0001', 'planned.xlsx']));
    // Done: the files are cleared for the next run.
    expect(screen.queryByText('ericsson.xlsx')).toBeNull();
  });

  test('a workbook without the needed headers is refused once, inline, and the files stay for another try', async () => {
    serve({
      'Validation/RunNbrRelationsValidation': () =>
        Promise.reject(refusal(400, 'planned.xlsx has no Source Cell column: the first row must name it (see the template).')),
    });
    await renderPage(NbrRelationsValidationPage);
    await chooseSite('LX0001 – Lisboa 1');
    choose(xlsx('planned.xlsx'));
    await waitFor(() => expect(buttonNamed(/Upload and validate/)).toBeEnabled());
    await act(async () => {
      fireEvent.click(buttonNamed(/Upload and validate/));
    });
    const alert = await screen.findByTestId('run-refusal');
    expect(alert).toHaveTextContent('planned.xlsx has no Source Cell column');
    expect(alert).toHaveClass('ant-alert-error');
    expect(screen.getAllByText(/has no Source Cell column/)).toHaveLength(1);
    expect(within(screen.getByLabelText('Chosen files')).getByText('planned.xlsx')).toBeInTheDocument();
  });

  test('opened with ?site=LX0001 the site is chosen, with no prompt to choose one', async () => {
    serve();
    await renderPage(NbrRelationsValidationPage, '/validation/nbrRelationsValidation?site=LX0001');
    await waitFor(() => expect(document.querySelector('.ant-select-content')?.getAttribute('title') ?? '').toMatch(/^LX0001/));
    expect(screen.queryByText('Choose a site to validate.')).toBeNull();
  });

  test('a choice on a bare address writes ?site=', async () => {
    serve();
    await renderPage(NbrRelationsValidationPage, '/validation/nbrRelationsValidation');
    expect(screen.getByText('Choose a site to validate.')).toBeInTheDocument();
    await chooseSite('LX0001 – Lisboa 1');
    expect(addressNow()).toBe('/validation/nbrRelationsValidation?site=LX0001');
    expect(screen.queryByText('Choose a site to validate.')).toBeNull();
  });
});
