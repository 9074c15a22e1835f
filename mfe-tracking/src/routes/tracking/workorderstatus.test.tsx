import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import WorkOrderStatusPage from './workorderstatus';
import { bodyRows, buttonNamed, calls, importWorkbook, post, renderPage, serve, fakeTrackingApi } from '../../testing/trackingKit';

jest.mock('shared-auth', () => ({ ...jest.requireActual('shared-auth'), api: { get: jest.fn(), post: jest.fn() } }));

fakeTrackingApi();

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
    post().mockResolvedValue({ data: { uploadId: 'up-3', name: 'data.xlsx', size: 2 } });
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
