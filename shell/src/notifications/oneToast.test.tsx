import { act, useState } from 'react';
import { api, clearSession, setToken } from 'shared-auth';
import { ConsoleProviders, ImportDialog, OUTCOME_GRACE_MS } from 'shared-ui';
import { button, chooseFiles, click, mount, waitFor } from '../testing/dom';
import { forgetHubStarts, hubHandler } from '../testing/fakeHub';
import { NotificationHub } from './NotificationHub';

jest.mock('shared-auth/hubClient', () => jest.requireActual('../testing/fakeHub').fakeHubClient);
jest.mock('shared-auth', () => ({ ...jest.requireActual('shared-auth'), api: { get: jest.fn(), put: jest.fn(), post: jest.fn() } }));

const get = api.get as jest.Mock;
const post = api.post as jest.Mock;
const jwt = (payload: object) => `h.${btoa(JSON.stringify(payload))}.s`;
const fire = (event: string, payload: unknown) => act(() => hubHandler(event)!(payload));
const toasts = () => Array.from(document.querySelectorAll('.ant-notification-notice')).map((n) => n.textContent);

const IMPORT_KEY = 'tracking-import-commissioningPlan';
const imported = { id: 7, key: IMPORT_KEY, title: 'Commissioning Plan successfully imported! 3 rows from plan.xlsx.', icon: 'success', readed: false };
const refused = { id: 8, key: IMPORT_KEY, title: 'Commissioning Plan not imported: Row 2: commDate is not a date.', icon: 'error', readed: false };

/** A page with the import dialog that can be taken off the screen. */
function Page({ shown }: { shown: boolean }) {
  const [open, setOpen] = useState(true);
  return shown ? (
    <ImportDialog title="Import Commissioning Plan" open={open} onClose={() => setOpen(false)} importPath="Tracker/CommissioningPlanUpload" />
  ) : null;
}

function Console({ shown = true }: { shown?: boolean }) {
  return (
    <ConsoleProviders>
      <NotificationHub />
      <Page shown={shown} />
    </ConsoleProviders>
  );
}

/** Starts an import whose answer the test gives; the job's hub events are fired meanwhile. */
async function startImport(): Promise<{ answer: (value: unknown) => void; fail: (error: unknown) => void }> {
  let answer: (value: unknown) => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  get.mockImplementation((path: string) => {
    if (path === 'Notification/Notifications') return Promise.resolve({ data: [] });
    if (path === 'Tracker/CommissioningPlanUpload')
      return new Promise((resolve, reject) => {
        answer = resolve;
        fail = reject;
      });
    return Promise.reject(new Error(`unexpected ${path}`));
  });
  const dialog = document.querySelector<HTMLElement>('.ant-modal')!;
  await chooseFiles(dialog.querySelector<HTMLInputElement>('input[type="file"]')!, [new File(['PK'], 'plan.xlsx')]);
  const upload = await waitFor(() => button(/Upload/, dialog));
  await waitFor(() => expect(upload).toBeEnabled());
  await click(upload);
  await waitFor(() => expect(get).toHaveBeenCalledWith('Tracker/CommissioningPlanUpload', expect.anything()));
  return { answer: (value) => answer(value), fail: (error) => fail(error) };
}

beforeEach(() => {
  get.mockReset();
  post.mockReset();
  post.mockResolvedValue({ data: { uploadId: 'up-1', name: 'plan.xlsx', size: 2 } });
  get.mockResolvedValue({ data: [] });
  setToken(jwt({ exp: Math.floor(Date.now() / 1000) + 3600 }));
});
afterEach(() => {
  clearSession();
  jest.useRealTimers();
  forgetHubStarts();
});

describe('one event, one toast', () => {
  test("an import's own toast is the only one: the hub's notification of it goes to the bell alone", async () => {
    const { unmount } = await mount(<Console />);
    await waitFor(() => expect(hubHandler('NewNotification')).toBeDefined());
    const call = await startImport();
    // The server tells the hub first, then answers the call.
    fire('JobProgress', { id: 'job-1', kind: 'tracking.import', state: 'succeeded', progress: 100, text: null });
    fire('NewNotification', imported);
    await act(async () => call.answer({ data: { message: 'Commissioning Plan successfully imported!', rows: 3 } }));
    await waitFor(() => expect(toasts()).toEqual(['Commissioning Plan successfully imported!']));
    // The bell was still told.
    expect(get.mock.calls.filter(([path]) => path === 'Notification/Notifications').length).toBeGreaterThanOrEqual(2);
    unmount();
  });

  test('a notification that comes just after the answer is not toasted either', async () => {
    const { unmount } = await mount(<Console />);
    await waitFor(() => expect(hubHandler('NewNotification')).toBeDefined());
    const call = await startImport();
    await act(async () => call.answer({ data: { message: 'Commissioning Plan successfully imported!', rows: 3 } }));
    fire('NewNotification', imported);
    await act(async () => undefined);
    expect(toasts()).toEqual(['Commissioning Plan successfully imported!']);
    unmount();
  });

  test('a refused import is shown in the dialog only', async () => {
    const { unmount } = await mount(<Console />);
    await waitFor(() => expect(hubHandler('NewNotification')).toBeDefined());
    const call = await startImport();
    fire('NewNotification', refused);
    await act(async () =>
      call.fail({
        response: {
          status: 400,
          data: { message: 'The workbook has 1 bad row; nothing was imported.', errors: [{ row: 2, column: 'commDate', problem: 'not a date' }] },
        },
      }),
    );
    await waitFor(() => expect(document.querySelector('.ant-modal [data-testid="import-problems"]')).not.toBeNull());
    expect(toasts()).toEqual([]);
    unmount();
  });

  test('other notifications, and those of a job whose page is gone, are toasted as they come', async () => {
    const { rerender, unmount } = await mount(<Console />);
    await waitFor(() => expect(hubHandler('NewNotification')).toBeDefined());
    fire('NewNotification', { id: 9, key: 'tracking-sync', title: 'Tracker synced: 3 sites.', icon: 'success', readed: false });
    await waitFor(() => expect(toasts()).toEqual(['Tracker synced: 3 sites.']));

    await startImport();
    // The user leaves the page before the import ends: its end is for the hub to tell.
    await rerender(<Console shown={false} />);
    fire('NewNotification', imported);
    await waitFor(() => expect(toasts()).toEqual(['Tracker synced: 3 sites.', imported.title]));
    unmount();
  });

  test('a claim lapses a few seconds after the answer', async () => {
    const { unmount } = await mount(<Console />);
    await waitFor(() => expect(hubHandler('NewNotification')).toBeDefined());
    const call = await startImport();
    jest.useFakeTimers();
    await act(async () => call.answer({ data: { message: 'Commissioning Plan successfully imported!', rows: 3 } }));
    act(() => jest.advanceTimersByTime(OUTCOME_GRACE_MS + 1));
    jest.useRealTimers();
    fire('NewNotification', imported);
    await waitFor(() => expect(toasts()).toContain(imported.title));
    unmount();
  });
});
