import { act, useEffect } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { api, clearSession, sessionStore, setToken, setUser, useSession, type Role } from 'shared-auth';
import { ConsoleProviders } from 'shared-ui';
import type { RemotesView } from '../federation/useRemotes';
import { mount, waitFor } from '../testing/dom';
import { hqUserIn } from '../testing/users';
import { MainLayout } from './MainLayout';
import { OperatorSwitcher } from './OperatorSwitcher';

// The bell opens a hub connection; the top bar's operator is what is tested here.
jest.mock('../notifications/NotificationBell', () => ({ NotificationBell: () => null }));
jest.mock('shared-auth', () => ({ ...jest.requireActual('shared-auth'), api: { get: jest.fn(), put: jest.fn(), post: jest.fn() } }));

const get = api.get as jest.Mock;
const post = api.post as jest.Mock;
const jwt = (payload: object) => `h.${btoa(JSON.stringify(payload))}.s`;

const VODAFONE = { id: 1, name: 'Vodafone PT' };
const MEO = { id: 3, name: 'MEO' };
const remotes: RemotesView = { locations: [], navigations: {}, status: {}, configLoaded: true, configError: null, retry: () => {} };

function signInAs(role: Role, operator: { id: number; name: string } | null = VODAFONE) {
  setToken(jwt({ exp: Math.floor(Date.now() / 1000) + 3600 }));
  setUser({ id: 11, firstname: 'Helena', lastname: 'Quaresma', role, operator, projects: ['Operations'], avatar: null });
}

const infoOf = hqUserIn;

const switcher = () => document.querySelector<HTMLSelectElement>('select[data-testid="operator-switcher"]');

async function choose(select: HTMLSelectElement, value: string): Promise<void> {
  await act(async () => {
    select.value = value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

beforeEach(() => {
  get.mockImplementation((path: string) =>
    path === 'Account/GetUserOperators' ? Promise.resolve({ data: [MEO, VODAFONE] }) : Promise.reject(new Error(`unexpected ${path}`)),
  );
  post.mockImplementation((path: string, body?: { operatorId: number }) => {
    if (path === 'account/GetUserInfo') return Promise.resolve({ data: infoOf(VODAFONE) });
    if (path === 'Account/UpdateSettings') return Promise.resolve({ data: infoOf(body!.operatorId === MEO.id ? MEO : VODAFONE) });
    return Promise.reject(new Error(`unexpected ${path}`));
  });
});
afterEach(() => {
  jest.clearAllMocks();
  clearSession();
});

describe('the top bar operator', () => {
  test.each<Role>(['Administrator', 'Manager', 'CellwiseHQ'])('a %s switches it with a labelled select of their operators', async (role) => {
    signInAs(role);
    const bar = await mount(
      <ConsoleProviders>
        <MemoryRouter>
          <OperatorSwitcher />
        </MemoryRouter>
      </ConsoleProviders>,
    );
    const select = await waitFor(() => switcher() ?? Promise.reject(new Error('no select')));
    expect(get).toHaveBeenCalledWith('Account/GetUserOperators', expect.objectContaining({ params: { userId: 11 } }));
    expect([...select.options].map((o) => o.textContent)).toEqual(['MEO', 'Vodafone PT']);
    expect(select.value).toBe(String(VODAFONE.id));
    // Its accessible name comes from a label element the select points at.
    const label = document.getElementById(select.getAttribute('aria-labelledby')!);
    expect(label).toHaveTextContent('Current operator');
    bar.unmount();
  });

  test.each<Role>(['CellwiseOS', 'Client'])('a %s sees the name, with no select and no list asked for', async (role) => {
    signInAs(role, { id: 2, name: 'NOS' });
    const bar = await mount(
      <ConsoleProviders>
        <MemoryRouter>
          <OperatorSwitcher />
        </MemoryRouter>
      </ConsoleProviders>,
    );
    expect(document.querySelector('[data-testid="current-operator"]')).toHaveTextContent('Current operator: NOS');
    expect(switcher()).toBeNull();
    expect(document.querySelector('select')).toBeNull();
    expect(get).not.toHaveBeenCalled();
    bar.unmount();
  });

  test('one operator is nothing to choose from: a CellwiseHQ of one operator sees its name', async () => {
    get.mockImplementation(() => Promise.resolve({ data: [VODAFONE] }));
    signInAs('CellwiseHQ');
    const bar = await mount(
      <ConsoleProviders>
        <MemoryRouter>
          <OperatorSwitcher />
        </MemoryRouter>
      </ConsoleProviders>,
    );
    await waitFor(() => expect(get).toHaveBeenCalled());
    await act(() => Promise.resolve());
    expect(switcher()).toBeNull();
    expect(document.querySelector('[data-testid="current-operator"]')).toHaveTextContent('Vodafone PT');
    bar.unmount();
  });

  test('switching saves the profile with the new operator, reloads the user, draws the open page anew and drops the record it named', async () => {
    signInAs('CellwiseHQ');
    let mounts = 0;
    function Page() {
      const id = useSession((st) => st.user.operator?.id);
      // Counts mounts, not renders: a page drawn anew starts its reads (and banners, charts, map) again.
      useEffect(() => {
        mounts += 1;
      }, []);
      const { search } = useLocation();
      return (
        <p data-testid="page">
          page of operator {id} <span data-testid="search">{search}</span>
        </p>
      );
    }
    const layout = await mount(
      <ConsoleProviders>
        <MemoryRouter initialEntries={['/monitoring/siteReport?run=5&siteId=LX0001']}>
          <Routes>
            <Route element={<MainLayout remotes={remotes} />}>
              <Route path="/monitoring/siteReport" element={<Page />} />
            </Route>
          </Routes>
        </MemoryRouter>
      </ConsoleProviders>,
    );
    const before = document.querySelector('[data-testid="page"]');
    expect(before).toHaveTextContent('page of operator 1');
    const select = await waitFor(() => switcher() ?? Promise.reject(new Error('no select')));

    await choose(select, String(MEO.id));
    await waitFor(() => expect(sessionStore.getState().user.operator).toEqual(MEO));
    // The profile is read first, then saved with its own values and the chosen operator.
    expect(post.mock.calls.map((c) => c[0])).toEqual(['account/GetUserInfo', 'Account/UpdateSettings']);
    expect(post).toHaveBeenCalledWith('Account/UpdateSettings', { firstname: 'Helena', lastname: 'Quaresma', operatorId: MEO.id });
    await waitFor(() => expect(switcher()!.value).toBe(String(MEO.id)));
    // The routed page was mounted anew (a new element), not merely re-rendered.
    const after = document.querySelector('[data-testid="page"]');
    expect(after).toHaveTextContent('page of operator 3');
    expect(after).not.toBe(before);
    expect(mounts).toBe(2);
    // The run named in the address was the other operator's: it is dropped, the rest of the address stays.
    expect(document.querySelector('[data-testid="search"]')).toHaveTextContent(/^\?siteId=LX0001$/);
    layout.unmount();
  });

  test('a refused switch keeps the operator and the page', async () => {
    signInAs('Manager');
    post.mockImplementation((path: string) =>
      path === 'account/GetUserInfo' ? Promise.resolve({ data: infoOf(VODAFONE) }) : Promise.reject(Object.assign(new Error('403'), { status: 403 })),
    );
    const bar = await mount(
      <ConsoleProviders>
        <MemoryRouter>
          <OperatorSwitcher />
        </MemoryRouter>
      </ConsoleProviders>,
    );
    const select = await waitFor(() => switcher() ?? Promise.reject(new Error('no select')));
    await choose(select, String(MEO.id));
    await waitFor(() => expect(switcher()!.disabled).toBe(false));
    expect(sessionStore.getState().user.operator).toEqual(VODAFONE);
    expect(switcher()!.value).toBe(String(VODAFONE.id));
    bar.unmount();
  });
});
