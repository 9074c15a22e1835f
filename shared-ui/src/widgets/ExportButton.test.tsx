import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { api, publishJobProgress, sessionStore } from 'shared-auth';
import { catchDownloads } from '../testing/pageKit';
import { ConsoleProviders } from './ConsoleProviders';
import { ExportButton } from './ExportButton';

jest.mock('shared-auth', () => ({ ...jest.requireActual('shared-auth'), api: { get: jest.fn() } }));
const get = api.get as jest.Mock;

let saved: string[];
beforeEach(() => {
  get.mockReset();
  saved = catchDownloads();
});
afterEach(() => jest.restoreAllMocks());

describe('ExportButton', () => {
  test('runs the export as a job: its progress beside the button, no full-screen overlay, the file downloaded at the end', async () => {
    let answer: (value: unknown) => void = () => undefined;
    get.mockImplementation((path: string) => {
      if (path === 'File/Download')
        return Promise.resolve({ data: new Blob(['PK']), headers: { 'content-disposition': 'attachment; filename="Tracker_1.xlsx"' } });
      return new Promise((resolve) => (answer = resolve));
    });
    render(
      <ConsoleProviders>
        <ExportButton path="Tracker/DownloadTracker" jobKind="tracking.export">
          Export
        </ExportButton>
      </ConsoleProviders>,
    );
    fireEvent.click(screen.getByRole('button', { name: /Export/ }));
    // The overlay counts calls that did not opt out; this one shows its own progress instead.
    expect(get).toHaveBeenCalledWith('Tracker/DownloadTracker', expect.objectContaining({ skipLoading: true }));
    expect(sessionStore.getState().loadingCount).toBe(0);
    const status = await screen.findByRole('status', { name: 'Export progress' });
    expect(status).toHaveTextContent('Preparing the file…');

    act(() => publishJobProgress({ id: 'job-1', kind: 'tracking.export', state: 'running', progress: 40, text: 'Writing rows 40,000 / 100,000' }));
    expect(status).toHaveTextContent('Writing rows 40,000 / 100,000');
    expect(screen.getByRole('progressbar', { name: 'Export progress' })).toHaveAttribute('aria-valuenow', '40');

    await act(async () => answer({ data: { file: 'exp-1' } }));
    await waitFor(() => expect(saved).toEqual(['Tracker_1.xlsx']));
    expect(screen.queryByRole('status', { name: 'Export progress' })).toBeNull();
  });
});
