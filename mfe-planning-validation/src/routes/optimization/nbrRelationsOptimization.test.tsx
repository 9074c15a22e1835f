import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { RunHistoryPage, RunResponse } from 'contracts';
import { publishJobProgress } from 'shared-auth';
import { ConsoleProviders } from 'shared-ui';
import { buttonNamed, catchDownloads, fakeApi, findingsOf, refusal, signIn } from '../../testing/validationKit';
import NbrRelationsOptimizationPage from './nbrRelationsOptimization';

const choose = (...files: File[]) => fireEvent.change(document.querySelector('input[type="file"]')!, { target: { files } });
const xlsx = (name: string, size = 2) => {
  const file = new File(['PK'], name);
  Object.defineProperty(file, 'size', { value: size });
  return file;
};

const RESULT: RunResponse = {
  runId: 3,
  file: 'export-3',
  message: 'Optimised 2 cells over 2 periods: 1 to remove, 0 to block, 2 to add.',
  summary: [
    { label: 'Remove', count: 1, tone: 'warning' },
    { label: 'Block', count: 0, tone: 'error' },
    { label: 'Add', count: 2, tone: 'info' },
  ],
  preview: {
    title: 'Add',
    columns: [
      { key: 'source', label: 'Source Cell' },
      { key: 'target', label: 'Target Cell' },
      { key: 'attempts', label: 'Attempts' },
    ],
    rows: [
      { source: 'LX0001_1', target: 'LX0003_2', attempts: 300 },
      { source: 'LX0002_1', target: 'LX0001_1', attempts: 150 },
    ],
    total: 2,
  },
};

const HISTORY: RunHistoryPage = {
  total: 1,
  rows: [
    {
      id: 2,
      user: 'Eva Engineer',
      sites: 'LX0001,LX0002',
      site: 'LX0001,LX0002',
      files: 'pm-week-46.xlsx',
      antenna: null,
      lteBands: null,
      runDate: '2026-11-20T10:00:00Z',
      message: 'Optimised 2 cells',
      outcome: 'Remove 4, Block 1, Add 0',
      hasFile: true,
    },
  ],
};

async function renderPage() {
  render(
    <ConsoleProviders>
      <MemoryRouter>
        <NbrRelationsOptimizationPage />
      </MemoryRouter>
    </ConsoleProviders>,
  );
  await screen.findByText('pm-week-46.xlsx');
}

let saved: string[];
beforeEach(() => {
  signIn();
  saved = catchDownloads();
});
afterEach(() => jest.restoreAllMocks());

describe('Nbr Relations Optimization', () => {
  test('downloads the template, and lists past runs with their outcome and workbook', async () => {
    const fake = fakeApi({
      'Optimization/GetNbrRelationsOptimizationHistory': HISTORY,
      'Optimization/GetNbrRelationsOptimizationTemplate': { file: 'template-1' },
      'Optimization/GetNbrRelationsOptimizationExport': { file: 'export-2' },
    });
    await renderPage();
    expect(screen.getByText('Remove 4, Block 1, Add 0')).toBeInTheDocument();
    expect(screen.getByText('LX0001,LX0002')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(buttonNamed(/Download template/));
    });
    await waitFor(() => expect(fake.to('File/Download').map((c) => c.params)).toEqual([{ file: 'template-1' }]));
    await act(async () => {
      fireEvent.click(screen.getByLabelText('Download the workbook of run 2'));
    });
    await waitFor(() => expect(fake.to('Optimization/GetNbrRelationsOptimizationExport').map((c) => c.params)).toEqual([{ nbrRelationsOptimizationId: 2 }]));
    await waitFor(() => expect(saved).toEqual(['template-1.xlsx', 'export-2.xlsx']));
  });

  test('only .xlsx files up to 10 MB are taken, before anything is sent', async () => {
    const fake = fakeApi({ 'Optimization/GetNbrRelationsOptimizationHistory': HISTORY });
    await renderPage();
    choose(xlsx('huge.xlsx', 11_000_000));
    expect(await screen.findByText('File huge.xlsx not valid. Please check file size.')).toBeInTheDocument();
    choose(xlsx('counters.csv'));
    expect(await screen.findByText('File counters.csv is not a .xlsx file.')).toBeInTheDocument();
    expect(buttonNamed(/Upload and optimise/)).toBeDisabled();
    expect(fake.calls.filter((c) => c.path === 'File/UploadMultiple' || c.path === 'File/Upload')).toHaveLength(0);
  });

  test('uploads the statistics, runs with the upload ids and the user id while showing the job, then the counts, the candidates and the workbook when asked', async () => {
    let finish: (value: RunResponse) => void = () => undefined;
    const fake = fakeApi({
      'Optimization/GetNbrRelationsOptimizationHistory': HISTORY,
      'File/UploadMultiple': { uploads: [{ uploadId: 'u-1' }, { uploadId: 'u-2' }] },
      'Optimization/GetNbrRelationsOptimizationFindings': findingsOf(RESULT),
      'Optimization/GetNbrRelationsOptimizationExport': { file: 'export-3' },
      'Optimization/RunNbrRelationsOptimization': () =>
        new Promise<RunResponse>((resolve) => {
          finish = resolve;
        }),
    });
    await renderPage();
    choose(xlsx('pm-day1.xlsx'), xlsx('pm-day2.xlsx'));
    await waitFor(() => expect(buttonNamed(/Upload and optimise/)).toBeEnabled());
    await act(async () => {
      fireEvent.click(buttonNamed(/Upload and optimise/));
    });
    await waitFor(() => expect(fake.to('Optimization/RunNbrRelationsOptimization')).toHaveLength(1));
    const call = fake.to('Optimization/RunNbrRelationsOptimization')[0]!;
    expect(call.params).toEqual({ userId: 7, filesPath: 'u-1,u-2' });
    expect(call.config).toMatchObject({ skipErrorHandling: true, skipLoading: true });

    expect(screen.getByText('Optimising…')).toBeInTheDocument();
    act(() => {
      publishJobProgress({ id: 'job-8', kind: 'validation.cpich', state: 'running', progress: 90, text: 'Judging cells' });
      publishJobProgress({ id: 'job-1', kind: 'optimization.neighbours', state: 'running', progress: 40, text: 'Reading pm-day1.xlsx: 1,000 rows' });
    });
    expect(await screen.findByText('Reading pm-day1.xlsx: 1,000 rows')).toBeInTheDocument();
    expect(screen.getByLabelText('Run progress')).toHaveAttribute('aria-valuenow', '40');
    expect(screen.queryByText('Judging cells')).toBeNull();

    await act(async () => {
      finish(RESULT);
    });
    expect(await screen.findByText(RESULT.message!)).toBeInTheDocument();
    expect(screen.getByText('Remove: 1')).toBeInTheDocument();
    expect(screen.getByText('Block: 0')).toBeInTheDocument();
    expect(screen.getByText('Add: 2')).toBeInTheDocument();
    expect(await screen.findByText('LX0003_2')).toBeInTheDocument();
    // Shown on the page; the workbook waits for the user's click.
    expect(fake.to('File/Download')).toHaveLength(0);
    await act(async () => {
      fireEvent.click(buttonNamed(/Download workbook/));
    });
    await waitFor(() => expect(fake.to('File/Download').map((c) => c.params)).toEqual([{ file: 'export-3' }]));
    expect(fake.to('Optimization/GetNbrRelationsOptimizationExport')[0]!.params).toEqual({ nbrRelationsOptimizationId: 3 });
    await waitFor(() => expect(fake.to('Optimization/GetNbrRelationsOptimizationHistory')).toHaveLength(2));
  });

  test("a refused workbook shows the server's message once, inline, and keeps the file for another try", async () => {
    const message = 'File counters.xlsx lacks the columns Attempts (Attempts, HO Attempts, pmHoExeAtt, pmHoPrepAtt).';
    fakeApi({
      'Optimization/GetNbrRelationsOptimizationHistory': HISTORY,
      'File/Upload': { uploadId: 'u-1', name: 'counters.xlsx', size: 2 },
      'File/UploadMultiple': { uploads: [{ uploadId: 'u-1' }] },
      'Optimization/RunNbrRelationsOptimization': () => Promise.reject(refusal(400, message)),
    });
    await renderPage();
    choose(xlsx('counters.xlsx'));
    await waitFor(() => expect(buttonNamed(/Upload and optimise/)).toBeEnabled());
    await act(async () => {
      fireEvent.click(buttonNamed(/Upload and optimise/));
    });
    expect(await screen.findByTestId('run-refusal')).toHaveTextContent(message);
    expect(screen.getAllByText(message)).toHaveLength(1);
    expect(screen.getByText('counters.xlsx')).toBeInTheDocument();
    expect(screen.queryByTestId('run-result')).toBeNull();
  });
});
