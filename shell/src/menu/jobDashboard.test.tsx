import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router-dom';
import { clearSession, setToken, setUser, type Role } from 'shared-auth';
import type { RemotesView } from '../federation/useRemotes';
import { MainLayout } from '../layouts/MainLayout';
import { jobDashboardUrl } from './jobDashboard';

// The bell opens a hub connection; the menu is what is tested here.
jest.mock('../notifications/NotificationBell', () => ({ NotificationBell: () => null }));
// Rendered without @testing-library (not a dependency of the shell): React is told that act() is in charge.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const remotes: RemotesView = { locations: [], navigations: {}, status: {}, configLoaded: true, configError: null, retry: () => {} };

/** A token the browser takes as live (it only reads `exp`; the server verifies). */
function liveToken(): string {
  const part = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ userId: 1, exp: Math.floor(Date.now() / 1000) + 3600 })}.signature+/=`;
}

function signInAs(role: Role): string {
  const token = liveToken();
  setToken(token);
  setUser({ id: 1, firstname: 'Test', lastname: role, role, operator: { id: 1, name: 'Vodafone PT' }, projects: ['Operations'], avatar: null });
  return token;
}

let container: HTMLDivElement;
let root: Root;
let open: jest.SpyInstance;

/** Renders the layout and opens its menu (jsdom matches no media query, so the layout is the narrow one: the menu is in the drawer). */
async function renderMenu(): Promise<HTMLElement> {
  await act(async () => {
    root.render(
      <MemoryRouter initialEntries={['/home']}>
        <MainLayout remotes={remotes} />
      </MemoryRouter>,
    );
  });
  await act(async () => {
    document.querySelector<HTMLButtonElement>('button[aria-label="Open menu"]')!.click();
  });
  const menu = document.querySelector<HTMLElement>('[role="menu"]');
  if (!menu) throw new Error('no side menu');
  return menu;
}

const labelsOf = (menu: HTMLElement) => [...menu.querySelectorAll('[role="menuitem"]')].map((item) => item.textContent?.trim());
const entryOf = (menu: HTMLElement) =>
  [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')].find((item) => item.textContent?.trim() === 'Job Dashboard');

beforeEach(() => {
  open = jest.spyOn(window, 'open').mockImplementation(() => null);
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});

afterEach(() => {
  act(() => root.unmount());
  document.body.replaceChildren();
  open.mockRestore();
  clearSession();
});

describe('the Job Dashboard menu entry', () => {
  test('an Administrator sees it, between the areas and Settings', async () => {
    signInAs('Administrator');
    expect(labelsOf(await renderMenu())).toEqual(['Home', 'Job Dashboard', 'Settings']);
  });

  test.each<Role>(['Manager', 'CellwiseHQ', 'CellwiseOS', 'Client'])('a %s does not see it', async (role) => {
    signInAs(role);
    expect(labelsOf(await renderMenu())).toEqual(['Home', 'Settings']);
  });

  test('a click opens the dashboard in a new tab with the session token as access_token', async () => {
    const token = signInAs('Administrator');
    const entry = entryOf(await renderMenu())!;
    await act(async () => entry.click());
    expect(open).toHaveBeenCalledTimes(1);
    expect(open).toHaveBeenCalledWith(`/management/jobs?access_token=${encodeURIComponent(token)}`, '_blank', 'noopener');
    // The entry is not a page of this tab: it never shows as the selected one.
    expect(entry.classList.contains('ant-menu-item-selected')).toBe(false);
  });

  test('Enter on the focused entry opens it too', async () => {
    const token = signInAs('Administrator');
    const entry = entryOf(await renderMenu())!;
    await act(async () => {
      entry.focus();
      entry.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', code: 'Enter', keyCode: 13, which: 13, bubbles: true }));
    });
    expect(open).toHaveBeenCalledWith(jobDashboardUrl(token), '_blank', 'noopener');
  });

  test('the token is encoded in the address', () => {
    expect(jobDashboardUrl('a.b+c/d=')).toBe('/management/jobs?access_token=a.b%2Bc%2Fd%3D');
  });
});
