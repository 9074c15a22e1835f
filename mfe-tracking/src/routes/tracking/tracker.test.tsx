import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import TrackerPage from './tracker';
import { buttonNamed, calls, downloads, importWorkbook, post, renderPage, serve, fakeTrackingApi } from '../../testing/trackingKit';

jest.mock('shared-auth', () => ({ ...jest.requireActual('shared-auth'), api: { get: jest.fn(), post: jest.fn() } }));

fakeTrackingApi();

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
    post().mockResolvedValue({ data: { uploadId: 'up-2', name: 'data.xlsx', size: 2 } });
    await renderPage(TrackerPage);
    await importWorkbook('Import', 'Import Tracker');
    expect(await screen.findByText('Tracker successfully imported!')).toBeInTheDocument();
    expect(calls('Tracker/ImportTracker')[0]![1]).toEqual({ params: { filePath: 'up-2' }, skipLoading: true, skipErrorHandling: true });
    await act(async () => {
      fireEvent.click(buttonNamed(/Export/));
    });
    await waitFor(() => expect(downloads()).toEqual(['export.xlsx']));
    expect(calls('File/Download')[0]![1]).toMatchObject({ params: { file: 'exp-2' } });
  });
});
