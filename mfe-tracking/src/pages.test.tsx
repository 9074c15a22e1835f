import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { api } from 'shared-auth';
import { ConsoleProviders } from 'shared-ui';
import { buttonNamed, catchDownloads } from 'shared-ui/testing';
import CommissioningPlanPage from './routes/tracking/commissioningplan';
import TrackerPage from './routes/tracking/tracker';
import WorkOrderStatusPage from './routes/tracking/workorderstatus';

jest.mock('shared-auth', () => ({ ...jest.requireActual('shared-auth'), api: { get: jest.fn(), post: jest.fn() } }));
const get = api.get as jest.Mock;
const post = api.post as jest.Mock;

type Answers = Record<string, unknown | ((params: Record<string, unknown>) => unknown)>;

/** A fake API: each path answers its value (or the value computed from the query). */
function serve(answers: Answers) {
  get.mockImplementation(async (path: string, config?: { params?: Record<string, unknown> }) => {
    if (path === 'File/Download') return { data: new Blob(['PK']), headers: { 'content-disposition': 'attachment; filename="export.xlsx"' } };
    if (!(path in answers)) throw new Error(`unexpected call ${path}`);
    const answer = answers[path];
    return { data: typeof answer === 'function' ? answer(config?.params ?? {}) : answer };
  });
}

const calls = (path: string) => get.mock.calls.filter(([p]) => p === path);

async function renderPage(Page: ComponentType) {
  render(
    <ConsoleProviders>
      <Page />
    </ConsoleProviders>,
  );
  await waitFor(() => expect(document.querySelector('.ant-spin-spinning')).toBeNull());
}

// Plain DOM queries: role queries walk the accessibility tree of a 20-column antd table and take
// seconds each in jsdom, which pushed these tests past their timeout on a loaded machine.
const bodyRows = () => Array.from(document.querySelectorAll('tr.ant-table-row')).map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent));

let clicked: string[];
beforeEach(() => {
  get.mockReset();
  post.mockReset();
  clicked = catchDownloads();
});
afterEach(() => jest.restoreAllMocks());

async function importWorkbook(button: string, dialogTitle: string) {
  fireEvent.click(buttonNamed(new RegExp(button)));
  const dialog = await waitFor(() => {
    const open = document.querySelector<HTMLElement>('.ant-modal');
    if (!open) throw new Error('no dialog yet');
    return open;
  });
  expect(within(dialog).getByText(dialogTitle)).toBeInTheDocument();
  fireEvent.change(dialog.querySelector('input[type="file"]')!, { target: { files: [new File(['PK'], 'data.xlsx')] } });
  const upload = await waitFor(() => buttonNamed(/Upload/, dialog));
  await waitFor(() => expect(upload).toBeEnabled());
  await act(async () => {
    fireEvent.click(upload);
  });
}

const planRow = {
  id: 1,
  localId: 'LX0001',
  technology: '4G',
  equipCode: 'EQ1',
  equipName: 'Lisboa Centro',
  supplier: 'Ericsson',
  workType: 'New site',
  commDate: '2026-03-05T14:07:09Z',
  week: 10,
  mkOwner: 'Ana',
  impOwner: 'Rui',
  btsArea: 'Lisboa',
  btsTech: 'Joana',
  project: 'Operations',
  comments: null,
  statResponse: 'OK',
  bssTech: 'Marta',
  workOrder: 'WO-1',
  localType: 'Macro',
  LastUpdate: '2026-03-06T09:00:00Z',
};

describe('Commissioning plan page', () => {
  test('shows the last import, every field of the plan a page at a time, and reloads both after an import', async () => {
    let imported = false;
    serve({
      'Tracker/GetCommissioningPlanLastImport': () => (imported ? '2026-05-01T10:11:12Z' : ''),
      'Tracker/GetCommissioningPlan': () => (imported ? { rows: [planRow], total: 1 } : { rows: [], total: 0 }),
      'Tracker/CommissioningPlanUpload': { message: 'Commissioning Plan successfully imported!', rows: 1 },
    });
    post.mockResolvedValue({ data: { uploadId: 'up-1', name: 'data.xlsx', size: 2 } });
    await renderPage(CommissioningPlanPage);
    expect(screen.getByText('Last import unavailable!')).toBeInTheDocument();
    expect(screen.getByText('No commissioning plan imported yet.')).toBeInTheDocument();
    expect(calls('Tracker/GetCommissioningPlan')[0]![1]).toEqual({ params: { page: 1, size: 10 }, skipLoading: true });

    imported = true;
    await importWorkbook('Import', 'Import Commissioning Plan');
    expect(calls('Tracker/CommissioningPlanUpload')[0]![1]).toEqual({ params: { filePath: 'up-1' }, skipLoading: true, skipErrorHandling: true });
    expect(await screen.findByText('Commissioning Plan successfully imported!')).toBeInTheDocument();
    expect(await screen.findByText('Last import: 01-05-2026 10:11:12')).toBeInTheDocument();
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(bodyRows()[0]).toEqual([
      'LX0001',
      '4G',
      'EQ1',
      'Lisboa Centro',
      'Ericsson',
      'New site',
      '05-03-2026 14:07:09',
      '10',
      'Ana',
      'Rui',
      'Lisboa',
      'Joana',
      'Operations',
      '',
      'OK',
      'Marta',
      'WO-1',
      'Macro',
      '06-03-2026 09:00:00',
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  test("a link's ?filters= (the rollout dashboard's planned bars) opens the plan filtered", async () => {
    serve({
      'Tracker/GetCommissioningPlanLastImport': '2026-05-01T10:11:12Z',
      'Tracker/GetCommissioningPlan': { rows: [planRow], total: 1 },
    });
    window.history.pushState({}, '', `/tracking/commissioningplan?filters=${encodeURIComponent(JSON.stringify({ week: '8' }))}`);
    try {
      await renderPage(CommissioningPlanPage);
      expect(calls('Tracker/GetCommissioningPlan')[0]![1]).toEqual({ params: { page: 1, size: 10, filters: '{"week":"8"}' }, skipLoading: true });
    } finally {
      window.history.pushState({}, '', '/');
    }
  });

  test('Export writes the workbook and downloads it', async () => {
    serve({
      'Tracker/GetCommissioningPlanLastImport': '',
      'Tracker/GetCommissioningPlan': { rows: [], total: 0 },
      'Tracker/GetCommissioningPlanExcel': { file: 'exp-1' },
    });
    await renderPage(CommissioningPlanPage);
    await act(async () => {
      fireEvent.click(buttonNamed(/Export/));
    });
    await waitFor(() => expect(clicked).toEqual(['export.xlsx']));
    expect(calls('File/Download')[0]![1]).toMatchObject({ params: { file: 'exp-1' }, responseType: 'blob', skipErrorHandling: true });
  });
});

describe('Tracker page', () => {
  test('falls back to "Tracker date unavailable!"; Sync Tracker in the more-options menu reloads the table and the date, and the page says what the sync changed', async () => {
    let synced = false;
    serve({
      'Tracker/GetTrackerLastUpdate': () => (synced ? '2026-05-02T08:00:00Z' : ''),
      'Tracker/GetTracker': () => ({ rows: [], total: synced ? 0 : 0 }),
      'Tracker/TrackerUpload': {
        message: 'Tracker synced: 3 sites: 1 added, 2 updated, 0 unchanged; 2 statuses moved (2 Planned → On Air).',
        changes: { added: 1, updated: 2, unchanged: 0, removed: 0, statusMoves: [{ from: 'Planned', to: 'On Air', count: 2 }] },
      },
    });
    await renderPage(TrackerPage);
    expect(screen.getByText('Tracker date unavailable!')).toBeInTheDocument();
    synced = true;
    fireEvent.click(document.querySelector('button[aria-label="More options"]')!);
    const item = await waitFor(() => {
      const entry = document.querySelector<HTMLElement>('[role="menuitem"]');
      if (!entry?.textContent?.includes('Sync Tracker')) throw new Error('no Sync Tracker entry yet');
      return entry;
    });
    await act(async () => {
      fireEvent.click(item);
    });
    const said = 'Tracker synced: 3 sites: 1 added, 2 updated, 0 unchanged; 2 statuses moved (2 Planned → On Air).';
    expect(await screen.findByText(said, { selector: '.ant-notification-notice *' })).toBeInTheDocument();
    // On the page too, after the toast is gone: the changes stay until closed.
    const onPage = document.querySelector('[data-testid="tracker-sync-changes"]');
    expect(onPage?.textContent).toBe(said);
    expect(await screen.findByText('Tracker date: 02-05-2026 08:00:00')).toBeInTheDocument();
    await waitFor(() => expect(calls('Tracker/GetTracker')).toHaveLength(2));
    await act(async () => {
      fireEvent.click(onPage!.querySelector('button')!);
    });
    await waitFor(() => expect(document.querySelector('[data-testid="tracker-sync-changes"]')).toBeNull());
  });

  test("imports through 'Import Tracker' and exports through DownloadTracker", async () => {
    serve({
      'Tracker/GetTrackerLastUpdate': '',
      'Tracker/GetTracker': { rows: [], total: 0 },
      'Tracker/ImportTracker': { message: 'Tracker successfully imported!', rows: 4 },
      'Tracker/DownloadTracker': { file: 'exp-2' },
    });
    post.mockResolvedValue({ data: { uploadId: 'up-2', name: 'data.xlsx', size: 2 } });
    await renderPage(TrackerPage);
    await importWorkbook('Import', 'Import Tracker');
    expect(await screen.findByText('Tracker successfully imported!')).toBeInTheDocument();
    expect(calls('Tracker/ImportTracker')[0]![1]).toEqual({ params: { filePath: 'up-2' }, skipLoading: true, skipErrorHandling: true });
    await act(async () => {
      fireEvent.click(buttonNamed(/Export/));
    });
    await waitFor(() => expect(clicked).toEqual(['export.xlsx']));
    expect(calls('File/Download')[0]![1]).toMatchObject({ params: { file: 'exp-2' } });
  });
});

describe('Work order status page', () => {
  test("shows the delta; 'Import Status' opens 'Import Work Order Status'; Export Status and Export Delta download their workbooks", async () => {
    serve({
      'Tracker/GetWorkOrderStatusLastImport': '2026-04-30T23:59:59Z',
      'Tracker/GetWorkOrderStatusDelta': {
        rows: [
          {
            id: 7,
            siteId: 'LX0002',
            woType: 'Install',
            woId: 'WO-2',
            trackerStatus: 'Open',
            wowStatus: 'Closed',
            wowCloseDate: '2026-04-01T00:00:00Z',
            wowLastChange: null,
            trackerLastUpdate: null,
            wowLastUpdate: null,
            action: 'Update tracker',
          },
        ],
        total: 1,
      },
      'Tracker/GetWorkOrderStatusExcel': { file: 'wow' },
      'Tracker/GetWorkOrderStatusDeltaExcel': { file: 'delta' },
      'Tracker/WorkOrderStatusUpload': { message: 'Work Order Status successfully imported!', rows: 1 },
    });
    post.mockResolvedValue({ data: { uploadId: 'up-3', name: 'data.xlsx', size: 2 } });
    await renderPage(WorkOrderStatusPage);
    expect(screen.getByText('Last import: 30-04-2026 23:59:59')).toBeInTheDocument();
    // The action comes right after the work order it is about, where it shows without scrolling.
    expect(bodyRows()).toEqual([['LX0002', 'Install', 'WO-2', 'Update tracker', 'Open', 'Closed', '01-04-2026 00:00:00', '', '', '']]);

    for (const [button, file] of [
      ['Export Status', 'wow'],
      ['Export Delta', 'delta'],
    ]) {
      await act(async () => {
        fireEvent.click(buttonNamed(new RegExp(button!)));
      });
      await waitFor(() => expect(calls('File/Download').at(-1)![1]).toMatchObject({ params: { file } }));
    }

    await importWorkbook('Import Status', 'Import Work Order Status');
    expect(await screen.findByText('Work Order Status successfully imported!')).toBeInTheDocument();
    await waitFor(() => expect(calls('Tracker/GetWorkOrderStatusDelta')).toHaveLength(2));
    expect(calls('Tracker/GetWorkOrderStatusLastImport')).toHaveLength(2);
  });
});
