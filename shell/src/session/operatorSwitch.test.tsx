import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { api, clearSession, sessionStore, setToken, setUser, type Role } from 'shared-auth';
import { ConsoleProviders, type NotificationItem } from 'shared-ui';
import NotificationsPage from '../routes/notifications';
import { click, mount, waitFor } from '../testing/dom';
import { hqUserIn } from '../testing/users';

jest.mock('shared-auth', () => ({ ...jest.requireActual('shared-auth'), api: { get: jest.fn(), put: jest.fn(), post: jest.fn() } }));

const get = api.get as jest.Mock;
const put = api.put as jest.Mock;
const post = api.post as jest.Mock;
const jwt = (payload: object) => `h.${btoa(JSON.stringify(payload))}.s`;

const VODAFONE = { id: 1, name: 'Vodafone PT' };
const MEO = { id: 3, name: 'MEO' };

const notification = (id: number, operator: NotificationItem['operator']): NotificationItem => ({
  id,
  key: 'monitoring-parse-42',
  title: `Logs parsed (${id})`,
  addedDate: new Date().toISOString(),
  icon: 'success',
  variant: 'success',
  readed: false,
  operator,
});

function signInAs(role: Role) {
  setToken(jwt({ exp: Math.floor(Date.now() / 1000) + 3600 }));
  setUser({ id: 11, firstname: 'Helena', lastname: 'Quaresma', role, operator: VODAFONE, projects: ['Operations'], avatar: null });
}

const infoOf = hqUserIn;

function Opened() {
  const { pathname, search } = useLocation();
  return (
    <p data-testid="opened">
      {pathname}
      {search} as {sessionStore.getState().user.operator?.name}
    </p>
  );
}

async function openPage(items: NotificationItem[]) {
  get.mockImplementation((path: string) => {
    if (path === 'Notification/Notifications') return Promise.resolve({ data: { rows: items, total: items.length } });
    return Promise.reject(new Error(`unexpected ${path}`));
  });
  return mount(
    <ConsoleProviders>
      <MemoryRouter initialEntries={['/notifications']}>
        <Routes>
          <Route path="/notifications" element={<NotificationsPage />} />
          <Route path="/monitoring/uploadLogs" element={<Opened />} />
        </Routes>
      </MemoryRouter>
    </ConsoleProviders>,
  );
}

const row = (id: number) => document.querySelector<HTMLElement>(`[data-notification-id="${id}"] button`)!;
const toasts = () => Array.from(document.querySelectorAll('.ant-notification-notice')).map((n) => n.textContent);

beforeEach(() => {
  put.mockResolvedValue({ data: null });
  post.mockImplementation((path: string, body?: { operatorId: number }) => {
    if (path === 'account/GetUserInfo') return Promise.resolve({ data: infoOf(VODAFONE) });
    if (path === 'Account/UpdateSettings') return Promise.resolve({ data: infoOf(body!.operatorId === MEO.id ? MEO : VODAFONE) });
    return Promise.reject(new Error(`unexpected ${path}`));
  });
});
afterEach(() => {
  jest.clearAllMocks();
  clearSession();
  document.body.innerHTML = '';
});

describe('opening a notification of another operator', () => {
  test('switches to that operator first, then opens its link', async () => {
    signInAs('CellwiseHQ');
    const page = await openPage([notification(5, MEO)]);
    await waitFor(() => expect(row(5)).toBeTruthy());
    // The row says which operator it belongs to, since opening it switches there.
    expect(row(5)).toHaveTextContent('MEO');
    await click(row(5));
    await waitFor(() => expect(document.querySelector('[data-testid="opened"]')).toHaveTextContent('/monitoring/uploadLogs?report=42 as MEO'));
    expect(put).toHaveBeenCalledWith('Notification/MarkAsRead/5', undefined, expect.anything());
    expect(post).toHaveBeenCalledWith('Account/UpdateSettings', { firstname: 'Helena', lastname: 'Quaresma', operatorId: MEO.id });
    expect(sessionStore.getState().user.operator).toEqual(MEO);
    page.unmount();
  });

  test('one of the current operator opens at once, and names no operator', async () => {
    signInAs('CellwiseHQ');
    const page = await openPage([notification(6, VODAFONE)]);
    await waitFor(() => expect(row(6)).toBeTruthy());
    expect(row(6)).not.toHaveTextContent('Vodafone PT');
    await click(row(6));
    await waitFor(() => expect(document.querySelector('[data-testid="opened"]')).toHaveTextContent('/monitoring/uploadLogs?report=42 as Vodafone PT'));
    expect(post).not.toHaveBeenCalledWith('Account/UpdateSettings', expect.anything());
    page.unmount();
  });

  test('a refused switch opens nothing', async () => {
    signInAs('Manager');
    post.mockImplementation((path: string) =>
      path === 'account/GetUserInfo' ? Promise.resolve({ data: infoOf(VODAFONE) }) : Promise.reject(Object.assign(new Error('403'), { status: 403 })),
    );
    const page = await openPage([notification(7, MEO)]);
    await waitFor(() => expect(row(7)).toBeTruthy());
    await click(row(7));
    await waitFor(() => expect(post).toHaveBeenCalledWith('Account/UpdateSettings', expect.anything()));
    await waitFor(() => expect(put).toHaveBeenCalled());
    expect(document.querySelector('[data-testid="opened"]')).toBeNull();
    expect(sessionStore.getState().user.operator).toEqual(VODAFONE);
    page.unmount();
  });

  test('a role that may not switch is told, and stays where it is', async () => {
    signInAs('CellwiseOS');
    const page = await openPage([notification(8, MEO)]);
    await waitFor(() => expect(row(8)).toBeTruthy());
    await click(row(8));
    await waitFor(() => expect(toasts()).toEqual(['This notification is about MEO, which is not your current operator.']));
    expect(post).not.toHaveBeenCalled();
    expect(document.querySelector('[data-testid="opened"]')).toBeNull();
    page.unmount();
  });
});
