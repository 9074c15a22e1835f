import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { api, clearSession, onJobProgress, setToken, useJobProgress } from 'shared-auth';
import { ConsoleProviders } from 'shared-ui';
import { fakeHubClient, forgetHubStarts, hubHandler, starts } from '../testing/fakeHub';
import { NotificationHub, TOKEN_CHANGE_OVERLAP_MS } from './NotificationHub';
import { toastVariant } from './store';

jest.mock('shared-auth/hubClient', () => jest.requireActual('../testing/fakeHub').fakeHubClient);
jest.mock('shared-auth', () => ({ ...jest.requireActual('shared-auth'), api: { get: jest.fn(), put: jest.fn() } }));

const get = api.get as jest.Mock;
const jwt = (payload: object) => `h.${btoa(JSON.stringify(payload))}.s`;
const fire = (event: string, payload: unknown) => act(() => hubHandler(event)!(payload));

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A widget of a remote: it follows imports and never connects itself. */
function ImportStage() {
  const job = useJobProgress('tracking.import');
  return <p data-testid="stage">{job ? `${job.text} (${job.progress}%)` : 'none'}</p>;
}

let container: HTMLDivElement;
let root: Root;
beforeEach(() => {
  container = document.body.appendChild(document.createElement('div'));
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
  clearSession();
  forgetHubStarts();
});

describe('NotificationHub', () => {
  test("republishes the hub's JobProgress to subscribers and toasts NewNotification as before", async () => {
    get.mockResolvedValue({ data: [] });
    setToken(jwt({ exp: Math.floor(Date.now() / 1000) + 3600 }));
    await act(async () =>
      root.render(
        <ConsoleProviders>
          <NotificationHub />
          <ImportStage />
        </ConsoleProviders>,
      ),
    );
    expect(fakeHubClient.startHubClient).toHaveBeenCalledTimes(1);
    expect(get).toHaveBeenCalledWith('Notification/Notifications', expect.anything());
    const stage = () => document.querySelector('[data-testid="stage"]')!.textContent;
    expect(stage()).toBe('none');

    const imports = jest.fn();
    const stop = onJobProgress(imports, 'tracking.import');
    const event = { id: 'job-1', kind: 'tracking.import', state: 'running', progress: 40, text: 'Reading rows 40,000 / 100,000' };
    fire('JobProgress', event);
    fire('JobProgress', { ...event, id: 'job-2', kind: 'tracking.sync', text: 'Rebuilding the tracker' });
    expect(imports.mock.calls).toEqual([[event]]);
    expect(stage()).toBe('Reading rows 40,000 / 100,000 (40%)');
    // Progress is not a notification: nothing is toasted or fetched for it.
    expect(document.querySelector('.ant-notification-notice')).toBeNull();
    expect(get).toHaveBeenCalledTimes(1);
    stop();

    fire('NewNotification', { id: 1, title: 'Tracker synced: 3 sites.', icon: 'success', readed: false });
    await act(async () => undefined);
    expect(document.querySelector('.ant-notification-notice')?.textContent).toContain('Tracker synced: 3 sites.');
  });

  test("each run's toast carries its outcome: an error run toasts as an error, a warning run as a warning, a clean one as a success", async () => {
    get.mockResolvedValue({ data: [] });
    setToken(jwt({ exp: Math.floor(Date.now() / 1000) + 3600 }));
    await act(async () =>
      root.render(
        <ConsoleProviders>
          <NotificationHub />
        </ConsoleProviders>,
      ),
    );
    const notice = (title: string) => [...document.querySelectorAll('.ant-notification-notice')].find((n) => n.textContent?.includes(title));
    const runs = [
      { id: 21, key: 'validation-cpich-run-5', title: 'Cpich validation of LX0001: 127 OK, 8 warnings, 3 errors.', icon: 'error', variant: 'error' },
      { id: 22, key: 'validation-cpich-run-6', title: 'Cpich validation of LX0002: 12 OK, 2 warnings, 0 errors.', icon: 'warning', variant: 'warning' },
      { id: 23, key: 'validation-cpich-run-7', title: 'Cpich validation of LX0004: 4 OK, 0 warnings, 0 errors.', icon: 'success', variant: 'success' },
    ];
    for (const run of runs) fire('NewNotification', { ...run, readed: false });
    await act(async () => undefined);
    const iconOf = (title: string) => notice(title)?.querySelector('.ant-notification-notice-icon [role="img"]')?.getAttribute('aria-label');
    expect(iconOf(runs[0]!.title)).toBe('close-circle');
    expect(iconOf(runs[1]!.title)).toBe('exclamation-circle');
    expect(iconOf(runs[2]!.title)).toBe('check-circle');
    // Data from the network: an unknown variant falls back to the icon, an unknown icon too to info.
    expect(toastVariant({ icon: 'warning', variant: 'loud' })).toBe('warning');
    expect(toastVariant({ icon: 'loud' as never, variant: 'loud' })).toBe('info');
  });

  test('a new token opens a new connection and keeps the old one a moment: what the old one is told still shows, each notification once', async () => {
    get.mockResolvedValue({ data: [] });
    setToken(jwt({ exp: Math.floor(Date.now() / 1000) + 3600, n: 1 }));
    await act(async () =>
      root.render(
        <ConsoleProviders>
          <NotificationHub />
        </ConsoleProviders>,
      ),
    );
    const first = (await fakeHubClient.startHubClient.mock.results[0]!.value) as { stop: jest.Mock };
    // The password change answers a new token: a second connection, the first not closed yet.
    await act(async () => setToken(jwt({ exp: Math.floor(Date.now() / 1000) + 3600, n: 2 })));
    expect(fakeHubClient.startHubClient).toHaveBeenCalledTimes(2);
    expect(first.stop).not.toHaveBeenCalled();

    // The password change's notice, pushed to the old connection while the new one connects …
    const notice = { id: 7, key: 'password-changed', title: 'Your password was changed.', icon: 'info', readed: false };
    act(() => starts[0]!.handlers.NewNotification!(notice));
    // … and to the new one too: told once.
    act(() => starts[1]!.handlers.NewNotification!(notice));
    await act(async () => undefined);
    expect([...document.querySelectorAll('.ant-notification-notice')].filter((n) => n.textContent?.includes('Your password was changed.'))).toHaveLength(1);

    // The old connection goes after the overlap.
    await act(async () => new Promise((resolve) => setTimeout(resolve, TOKEN_CHANGE_OVERLAP_MS + 50)));
    expect(first.stop).toHaveBeenCalled();
  }, 15_000);

  test('signing out closes the connection at once', async () => {
    get.mockResolvedValue({ data: [] });
    setToken(jwt({ exp: Math.floor(Date.now() / 1000) + 3600 }));
    await act(async () =>
      root.render(
        <ConsoleProviders>
          <NotificationHub />
        </ConsoleProviders>,
      ),
    );
    const hub = (await fakeHubClient.startHubClient.mock.results[0]!.value) as { stop: jest.Mock };
    await act(async () => clearSession());
    await act(async () => undefined);
    expect(hub.stop).toHaveBeenCalled();
  });
});
