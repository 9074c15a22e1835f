import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ParsedFile, ParseReport, ParseResponse, UnusableLogsResponse } from 'contracts';
import { apiRefusal, publishJobProgress } from 'shared-auth';
import UploadLogsPage from './uploadLogs';
import { buttonNamed, catchDownloads, fakeApi, locationNow, refusal, renderPage, rowsOf, signIn, type Answers } from '../../testing/monitoringKit';

const counts = { files: 4, parsed: 1, unreachable: 1, notInInventory: 1, failed: 1, problems: 2 };

const REPORT: ParseReport = {
  id: 5,
  parsedAt: '2026-05-02T08:00:00Z',
  parsedBy: 'Eva Engineer',
  archives: ['mobatch_4G.zip'],
  logsDate: '2026-05-01T10:00:00Z',
  counts,
  files: [
    {
      archive: 'mobatch_4G.zip',
      file: 'ERBS_LX0001_A.log',
      node: 'ERBS_LX0001_A',
      siteId: 'LX0001',
      outcome: 'parsed',
      alarms: 3,
      problemCount: 0,
      problems: [],
      reason: null,
    },
    {
      archive: 'mobatch_4G.zip',
      file: 'ERBS_LX0002_A.log',
      node: 'ERBS_LX0002_A',
      siteId: 'LX0002',
      outcome: 'unreachable',
      alarms: 0,
      problemCount: 0,
      problems: [],
      reason: 'Checking ip contact...Not OK',
    },
    {
      archive: 'mobatch_4G.zip',
      file: 'ERBS_XX9999_A.log',
      node: 'ERBS_XX9999_A',
      siteId: null,
      outcome: 'not in inventory',
      alarms: 1,
      problemCount: 0,
      problems: [],
      reason: null,
    },
    {
      archive: 'mobatch_4G.zip',
      file: 'ERBS_LX0003_A.log',
      node: 'ERBS_LX0003_A',
      siteId: 'LX0003',
      outcome: 'failed',
      alarms: 0,
      problemCount: 2,
      problems: [
        { line: 12, reason: 'alt footer says 3 alarms, 2 rows read', command: 'alt' },
        { line: 40, reason: 'truncated st table', command: 'st cell' },
      ],
      reason: null,
    },
  ],
};

const PARSED: ParseResponse = { message: 'Successfully parsed 2 files.', parseId: 5, logsDate: '2026-05-01T10:00:00Z', counts };

function serve(more: Answers = {}) {
  let parsed = false;
  const api = fakeApi(
    {
      'Monitoring/GetLogsLastImport': () => (parsed ? '2026-05-01T10:00:00Z' : ''),
      'Parser/GetParseHistory': { rows: [], total: 0 },
      'Parser/GetParseReport': REPORT,
      'Parser/GetMoBacthScripts': { file: 'scripts-1' },
      'File/UploadMultiple': { uploads: [{ uploadId: 'u-1' }, { uploadId: 'u-2' }] },
      'File/Upload': { uploadId: 'u-1', name: 'a.zip', size: 2 },
      'Parser/ParseEricssonLogs': () => {
        parsed = true;
        return PARSED;
      },
      ...more,
    },
    // The scripts are a zip.
    { downloadName: (file) => `${file}.zip` },
  );
  return api;
}

const zip = (name: string, size = 2) => {
  const file = new File(['PK'], name, { type: 'application/zip' });
  Object.defineProperty(file, 'size', { value: size });
  return file;
};

function choose(...files: File[]) {
  fireEvent.change(document.querySelector('input[type="file"]')!, { target: { files } });
}

let saved: string[];
beforeEach(() => {
  signIn('CellwiseHQ', 7);
  saved = catchDownloads();
});
afterEach(() => jest.restoreAllMocks());

describe('Upload Logs', () => {
  test("falls back to 'Logs date unavailable!', an empty history says what to do, and 'Get MoBatch Scripts' downloads the zip", async () => {
    const api = serve();
    await renderPage(UploadLogsPage, '/monitoring/uploadLogs');
    expect(screen.getByText('Logs date unavailable!')).toBeInTheDocument();
    expect(await screen.findByText('No logs parsed yet: upload MoBatch logs above.')).toBeInTheDocument();
    expect(api.to('Parser/GetParseHistory')[0]!.params).toEqual({ page: 1, size: 10 });
    await act(async () => {
      fireEvent.click(buttonNamed(/Get MoBatch Scripts/));
    });
    await waitFor(() => expect(saved).toEqual(['scripts-1.zip']));
    expect(api.to('File/Download')[0]!.params).toEqual({ file: 'scripts-1' });
  });

  test('an 11 MB archive is refused before anything is sent, with the one size wording; only .zip is taken', async () => {
    const api = serve();
    await renderPage(UploadLogsPage, '/monitoring/uploadLogs');
    choose(zip('huge.zip', 11_000_000));
    expect(await screen.findByText('File huge.zip not valid. Please check file size.')).toBeInTheDocument();
    choose(zip('notes.txt'));
    expect(await screen.findByText('File notes.txt is not a .zip file.')).toBeInTheDocument();
    expect(screen.queryByText('huge.zip')).toBeNull();
    expect(buttonNamed(/Upload and parse/)).toBeDisabled();
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  test('uploads the archives, parses them with the upload ids and the user id while showing the job, then the outcome per file and a fresh banner', async () => {
    let finish: (value: ParseResponse) => void = () => undefined;
    let finished = false;
    const api = serve({
      'Monitoring/GetLogsLastImport': () => (finished ? '2026-05-01T10:00:00Z' : ''),
      'Parser/ParseEricssonLogs': () =>
        new Promise<ParseResponse>((resolve) => {
          finish = resolve;
        }),
    });
    await renderPage(UploadLogsPage, '/monitoring/uploadLogs');
    choose(zip('mobatch_4G.zip'), zip('mobatch_5G.zip'));
    await waitFor(() => expect(buttonNamed(/Upload and parse/)).toBeEnabled());
    await act(async () => {
      fireEvent.click(buttonNamed(/Upload and parse/));
    });
    await waitFor(() => expect(api.to('Parser/ParseEricssonLogs')).toHaveLength(1));
    const upload = api.to('File/UploadMultiple')[0]!;
    expect((upload.body as FormData).getAll('files').map((f) => (f as File).name)).toEqual(['mobatch_4G.zip', 'mobatch_5G.zip']);
    const call = api.to('Parser/ParseEricssonLogs')[0]!;
    expect(call.params).toEqual({ filesPath: 'u-1,u-2', userId: 7 });
    // The refusal is shown inline, once: the API client's toast stays off.
    expect(call.config).toMatchObject({ skipErrorHandling: true, skipLoading: true });

    expect(screen.getByText('Parsing…')).toBeInTheDocument();
    act(() => {
      publishJobProgress({ id: 'job-9', kind: 'tracking.import', state: 'running', progress: 90, text: 'Reading rows' });
      publishJobProgress({ id: 'job-1', kind: 'monitoring.parse', state: 'running', progress: 40, text: 'Parsing ERBS_LX0001_A.log (2 / 4)' });
    });
    expect(await screen.findByText('Parsing ERBS_LX0001_A.log (2 / 4)')).toBeInTheDocument();
    expect(screen.getByLabelText('Parse progress')).toHaveAttribute('aria-valuenow', '40');
    expect(screen.queryByText('Reading rows')).toBeNull();

    await act(async () => {
      finished = true;
      finish(PARSED);
    });
    expect((await screen.findAllByText('Successfully parsed 2 files.')).length).toBeGreaterThan(0);
    expect(screen.getByText('4 files: 1 parsed, 1 unreachable, 1 not in inventory, 1 failed, 2 problems')).toBeInTheDocument();
    await waitFor(() => expect(rowsOf('Files')).toHaveLength(4));
    expect(api.to('Parser/GetParseReport')[0]!.params).toEqual({ id: 5 });
    expect(rowsOf('Files').map((r) => r[4])).toEqual(['parsed', 'unreachable', 'not in inventory', 'failed']);
    expect(rowsOf('Problems')).toEqual([
      ['mobatch_4G.zip', 'ERBS_LX0003_A.log', '12', 'alt', 'alt footer says 3 alarms, 2 rows read'],
      ['mobatch_4G.zip', 'ERBS_LX0003_A.log', '40', 'st cell', 'truncated st table'],
    ]);
    expect(await screen.findByText('Logs date: 01-05-2026 10:00:00')).toBeInTheDocument();
    await waitFor(() => expect(api.to('Parser/GetParseHistory')).toHaveLength(2));
  });

  test("a refused archive shows the server's message once, inline, and keeps the files for another try", async () => {
    serve({
      'File/Upload': { uploadId: 'u-1', name: 'junk.zip', size: 2 },
      'Parser/ParseEricssonLogs': () => Promise.reject(refusal(400, 'junk.zip is not a MoBatch log set.')),
    });
    await renderPage(UploadLogsPage, '/monitoring/uploadLogs');
    choose(zip('junk.zip'));
    await waitFor(() => expect(buttonNamed(/Upload and parse/)).toBeEnabled());
    await act(async () => {
      fireEvent.click(buttonNamed(/Upload and parse/));
    });
    const alert = await screen.findByTestId('parse-refusal');
    expect(alert).toHaveTextContent('junk.zip is not a MoBatch log set.');
    expect(screen.getAllByText('junk.zip is not a MoBatch log set.')).toHaveLength(1);
    expect(screen.getByText('junk.zip')).toBeInTheDocument();
  });

  test("a 422 'nothing usable' answer lists every file's reasons below its message, paged, with file, line and reason", async () => {
    const failed = (n: number): ParsedFile => ({
      archive: 'junk.zip',
      file: `LX${String(n).padStart(4, '0')}.log`,
      node: `LX${String(n).padStart(4, '0')}`,
      siteId: null,
      outcome: 'failed',
      alarms: 0,
      problemCount: 1,
      problems: [{ line: n, reason: `binary data: ${n} lines skipped`, command: null }],
      reason: null,
    });
    const files: ParsedFile[] = [
      ...Array.from({ length: 11 }, (_, k) => failed(k + 1)),
      // More problems than the answer lists (50 per file): the caption says how many were left out.
      {
        ...failed(12),
        file: 'LX0012.log',
        problemCount: 60,
        problems: [
          { line: 3, reason: 'alt footer says 3 alarms, 2 rows read', command: 'alt' },
          { line: 9, reason: 'log ends inside the st table', command: 'st cell' },
        ],
      },
      { ...failed(13), file: 'sites.txt', node: null, outcome: 'ignored', problems: [{ line: 1, reason: 'not AMOS/moshell output', command: null }] },
      // Nothing to say of macOS metadata: no row.
      { ...failed(14), file: '__MACOSX/._LX0001.log', node: null, outcome: 'ignored', problemCount: 0, problems: [] },
    ];
    const message = 'Nothing usable in junk.zip: no log could be read (LX0001.log line 1: binary data: 1 lines skipped; and 12 more). Nothing was stored.';
    serve({
      'File/Upload': { uploadId: 'u-1', name: 'junk.zip', size: 2 },
      'Parser/ParseEricssonLogs': () => Promise.reject(apiRefusal<UnusableLogsResponse>(422, { message, files })),
    });
    await renderPage(UploadLogsPage, '/monitoring/uploadLogs');
    choose(zip('junk.zip'));
    await waitFor(() => expect(buttonNamed(/Upload and parse/)).toBeEnabled());
    await act(async () => {
      fireEvent.click(buttonNamed(/Upload and parse/));
    });
    expect(await screen.findByTestId('parse-refusal')).toHaveTextContent(message);
    const caption = 'Why nothing could be read (the first 14 of 72 problems)';
    await waitFor(() => expect(rowsOf(caption)).toHaveLength(10));
    expect(rowsOf(caption).slice(0, 2)).toEqual([
      ['junk.zip', 'LX0001.log', '1', '', 'binary data: 1 lines skipped'],
      ['junk.zip', 'LX0002.log', '2', '', 'binary data: 2 lines skipped'],
    ]);
    // The history below is empty: the one second page is this table's.
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    });
    await waitFor(() =>
      expect(rowsOf(caption)).toEqual([
        ['junk.zip', 'LX0011.log', '11', '', 'binary data: 11 lines skipped'],
        ['junk.zip', 'LX0012.log', '3', 'alt', 'alt footer says 3 alarms, 2 rows read'],
        ['junk.zip', 'LX0012.log', '9', 'st cell', 'log ends inside the st table'],
        ['junk.zip', 'sites.txt', '1', '', 'not AMOS/moshell output'],
      ]),
    );
  });

  test('a refusal other than 422 shows no reasons table', async () => {
    serve({ 'Parser/ParseEricssonLogs': () => Promise.reject(refusal(400, 'The archive a.zip holds no MoBatch logs.')) });
    await renderPage(UploadLogsPage, '/monitoring/uploadLogs');
    choose(zip('a.zip'));
    await waitFor(() => expect(buttonNamed(/Upload and parse/)).toBeEnabled());
    await act(async () => {
      fireEvent.click(buttonNamed(/Upload and parse/));
    });
    expect(await screen.findByTestId('parse-refusal')).toHaveTextContent('The archive a.zip holds no MoBatch logs.');
    expect(screen.queryByText(/Why nothing could be read/)).toBeNull();
  });

  test('?report=<id> opens that parse report; closing it takes the id out of the address; history rows open theirs', async () => {
    const api = serve({
      'Parser/GetParseHistory': {
        rows: [
          {
            id: 5,
            parsedAt: '2026-05-02T08:00:00Z',
            parsedBy: 'Eva Engineer',
            archives: 'mobatch_4G.zip',
            logsDate: '2026-05-01T10:00:00Z',
            files: 4,
            parsed: 1,
            unreachable: 1,
            notInInventory: 1,
            failed: 1,
            problems: 2,
          },
        ],
        total: 1,
      },
    });
    await renderPage(UploadLogsPage, '/monitoring/uploadLogs?report=5');
    const drawer = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('.ant-drawer-open');
      if (!found?.textContent?.includes('ERBS_LX0002_A.log')) throw new Error('no report yet');
      return found;
    });
    expect(within(drawer).getByText('Parse report #5')).toBeInTheDocument();
    expect(drawer.textContent).toContain('Checking ip contact...Not OK');
    expect(drawer.textContent).toContain('Eva Engineer');
    expect(api.to('Parser/GetParseReport')[0]!.params).toEqual({ id: 5 });

    fireEvent.click(drawer.querySelector('.ant-drawer-close')!);
    await waitFor(() => expect(locationNow()).toBe('/monitoring/uploadLogs'));
    fireEvent.click(await waitFor(() => document.querySelector('button[aria-label="View report of parse 5"]')!));
    await waitFor(() => expect(locationNow()).toBe('/monitoring/uploadLogs?report=5'));
  });

  test('an unknown report id says so in the drawer instead of leaving the page', async () => {
    serve({ 'Parser/GetParseReport': () => Promise.reject(refusal(404, 'Parse not found.')) });
    await renderPage(UploadLogsPage, '/monitoring/uploadLogs?report=99');
    expect(await screen.findByText('Parse not found.')).toBeInTheDocument();
    expect(locationNow()).toBe('/monitoring/uploadLogs?report=99');
  });
});
