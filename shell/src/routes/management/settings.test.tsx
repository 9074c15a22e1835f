import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { UserInfo } from 'contracts';
import { api, type ApiResponse, clearSession, setToken, setUser } from 'shared-auth';
import { ConsoleProviders } from 'shared-ui';
import { button, click, mount, waitFor } from '../../testing/dom';
import SettingsPage from './settings';

const INFO = {
  id: 5,
  firstname: 'Inês',
  lastname: 'Costa',
  email: 'os@cellwise.local',
  role: 'CellwiseOS',
  operator: { id: 7, name: 'NOS' },
  projects: ['Operations'],
  avatar: null,
} as unknown as UserInfo;

const jwt = (payload: object) => `h.${btoa(JSON.stringify(payload))}.s`;
const answer = <T,>(data: T) => Promise.resolve({ data } as ApiResponse<T>);

afterEach(() => {
  jest.restoreAllMocks();
  clearSession();
});

describe('/management/settings', () => {
  test("'Profile updated!' is a toast like every other: bottom right, none top centre", async () => {
    setToken(jwt({ exp: Math.floor(Date.now() / 1000) + 3600 }));
    setUser({ id: 5, firstname: 'Inês', lastname: 'Costa', role: 'CellwiseOS', operator: { id: 7, name: 'NOS' }, projects: ['Operations'], avatar: null });
    jest.spyOn(api, 'get').mockImplementation(() => answer([{ id: 7, name: 'NOS' }]));
    const post = jest.spyOn(api, 'post').mockImplementation(() => answer(INFO));
    const page = await mount(
      <ConsoleProviders>
        <MemoryRouter initialEntries={['/management/settings/general']}>
          <Routes>
            <Route path="/management/settings/:tab?" element={<SettingsPage />} />
          </Routes>
        </MemoryRouter>
      </ConsoleProviders>,
    );
    await waitFor(() => expect(document.querySelector('[aria-label="Email"]')).toHaveTextContent('os@cellwise.local'));
    await click(button('Save Changes'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('Account/UpdateSettings', { firstname: 'Inês', lastname: 'Costa', operatorId: 7 }));
    await waitFor(() => expect(document.querySelector('.ant-notification-bottomRight')).toHaveTextContent('Profile updated!'));
    expect(document.querySelector('.ant-message')).toBeNull();
    page.unmount();
  });
});
