import { act } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { api, clearSession, setToken, setUser } from 'shared-auth';
import { ConsoleProviders } from 'shared-ui';
import { button, click, mount, waitFor } from '../testing/dom';
import { SiteSearch } from './SiteSearch';

jest.mock('shared-auth', () => ({ ...jest.requireActual('shared-auth'), api: { get: jest.fn(), put: jest.fn(), post: jest.fn() } }));

const get = api.get as jest.Mock;
const jwt = (payload: object) => `h.${btoa(JSON.stringify(payload))}.s`;
const must = <T,>(found: T | null, what: string): T => {
  if (found === null) throw new Error(`no ${what}`);
  return found;
};
const searchbox = () => document.querySelector<HTMLInputElement>('input[type="search"][aria-label="Search sites"]');

beforeEach(() => {
  setToken(jwt({ exp: Math.floor(Date.now() / 1000) + 3600 }));
  setUser({
    id: 11,
    firstname: 'Helena',
    lastname: 'Quaresma',
    role: 'Administrator',
    operator: { id: 1, name: 'Vodafone PT' },
    projects: ['Operations'],
    avatar: null,
  });
  get.mockResolvedValue({ data: [{ siteId: 'LX0001', siteName: 'Lisboa', overallSiteStatus: null }] });
});
afterEach(() => {
  jest.clearAllMocks();
  clearSession();
});

const render = (compact: boolean) =>
  mount(
    <ConsoleProviders>
      <MemoryRouter>
        <SiteSearch compact={compact} />
      </MemoryRouter>
    </ConsoleProviders>,
  );

// Issue 47: at 390 px the box beside the operator switcher overlapped it.
test('compact, it is a button that unfolds the box, focused; Escape folds it back to the button', async () => {
  const bar = await render(true);
  expect(searchbox()).toBeNull();
  await click(button('Open site search'));
  const box = await waitFor(() => must(searchbox(), 'box'));
  expect(document.activeElement).toBe(box);
  await act(async () => {
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
  });
  expect(searchbox()).toBeNull();
  await waitFor(() => must(document.activeElement === button('Open site search') ? true : null, 'focus on the button'));
  bar.unmount();
});

test('wide, the box shows at once with no button', async () => {
  const bar = await render(false);
  expect(searchbox()).not.toBeNull();
  expect(document.querySelector('[aria-label="Open site search"]')).toBeNull();
  bar.unmount();
});
