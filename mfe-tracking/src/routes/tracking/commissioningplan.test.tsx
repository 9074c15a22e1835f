import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import CommissioningPlanPage from './commissioningplan';
import { bodyRows, buttonNamed, calls, downloads, importWorkbook, post, renderPage, serve, fakeTrackingApi } from '../../testing/trackingKit';

jest.mock('shared-auth', () => ({ ...jest.requireActual('shared-auth'), api: { get: jest.fn(), post: jest.fn() } }));

fakeTrackingApi();

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
    post().mockResolvedValue({ data: { uploadId: 'up-1', name: 'data.xlsx', size: 2 } });
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
    await waitFor(() => expect(downloads()).toEqual(['export.xlsx']));
    expect(calls('File/Download')[0]![1]).toMatchObject({ params: { file: 'exp-1' }, responseType: 'blob', skipErrorHandling: true });
  });
});
