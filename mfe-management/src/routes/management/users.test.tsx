import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { UserListRow } from 'contracts';
import { api, type ApiResponse, setToken, setUser } from 'shared-auth';
import { ConsoleProviders } from 'shared-ui';
import { buttonNamed } from 'shared-ui/testing';
import UsersPage from './users';

const ROWS: UserListRow[] = [
  {
    id: 1,
    name: 'Ana Admin',
    email: 'ana@example.pt',
    role: 'Administrator',
    operators: 'MEO, NOS, Vodafone PT',
    status: true,
    online: true,
    deactivated: false,
  },
  { id: 2, name: 'Nuno Novo', email: 'nuno@example.pt', role: 'CellwiseOS', operators: 'NOS', status: false, online: false, deactivated: false },
  { id: 3, name: 'Dora Gone', email: 'dora@example.pt', role: 'Client', operators: 'NOS', status: true, online: false, deactivated: true },
];

/** What the server offers each caller in the role select. */
const ROLES_OFFERED = {
  Administrator: [
    { id: 1, name: 'Administrator' },
    { id: 5, name: 'Client' },
  ],
  Manager: [{ id: 5, name: 'Client' }],
};

const answer = <T,>(data: T) => Promise.resolve({ data } as ApiResponse<T>);

/** The API as the page sees it: answers by path, records what was sent. */
function fakeApi(role: 'Administrator' | 'Manager') {
  const sent: Array<{ method: string; url: string; body?: unknown }> = [];
  jest.spyOn(api, 'get').mockImplementation((url: string) => {
    if (url.startsWith('Users/GetUsers?')) return answer(ROWS);
    if (url === 'Users/GetUsersStats') return answer({ online: 1, active: 1, client: 1, registered: 3 });
    if (url.startsWith('Users/GetAuditTrail')) return answer({ rows: [], total: 0 });
    if (url.startsWith('Users/GetRoles')) return answer(ROLES_OFFERED[role]);
    if (url === 'Users/GetOperators') return answer([{ id: 7, name: 'NOS' }]);
    return Promise.reject(new Error(`unexpected GET ${url}`));
  });
  jest.spyOn(api, 'post').mockImplementation((url: string, body?: unknown) => {
    sent.push({ method: 'POST', url, body });
    return answer({ message: url === 'Users/DeactivateUser' ? 'User deactivated.' : 'ok', id: 9 });
  });
  jest.spyOn(api, 'delete').mockImplementation((url: string, config?: { data?: unknown }) => {
    sent.push({ method: 'DELETE', url, body: config?.data });
    return answer({ message: 'User deleted.' });
  });
  return sent;
}

/** A token the session store accepts as live (its signature is the server's business). */
function liveToken(): string {
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: '1', exp: Math.floor(Date.now() / 1000) + 3600 })}.signature`;
}

type SignedIn = Parameters<typeof setUser>[0];

/** The page as `role` sees it; `who` is the signed-in user when it matters who they are (set before the page draws). */
function renderAs(role: 'Administrator' | 'Manager', who?: SignedIn) {
  setToken(liveToken());
  setUser(who ?? { id: 99, firstname: 'Eva', lastname: 'Editor', role, operator: { id: 7, name: 'NOS' }, projects: ['Operations'], avatar: null });
  const sent = fakeApi(role);
  render(
    <ConsoleProviders>
      <MemoryRouter>
        <UsersPage />
      </MemoryRouter>
    </ConsoleProviders>,
  );
  return sent;
}

const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr') as HTMLElement;

afterEach(() => jest.restoreAllMocks());

describe('/management/users', () => {
  test('the four stats, and one row per user with status, presence and operators one per line', async () => {
    renderAs('Administrator');
    for (const label of ['Online', 'Active', 'Client', 'Registered'])
      expect(await screen.findByText(label, { selector: '.ant-statistic-title' })).toBeInTheDocument();
    const ana = await rowOf('Ana Admin');
    expect(within(ana).getByText('Email confirmed')).toBeInTheDocument();
    expect(within(ana).getByText('Online')).toBeInTheDocument();
    expect(within(ana).getByText('MEO').tagName).toBe('SPAN');
    expect(within(ana).getByText('Vodafone PT')).toBeInTheDocument();
    expect(within(await rowOf('Nuno Novo')).getByText('Email not confirmed')).toBeInTheDocument();
    expect(within(await rowOf('Dora Gone')).getByText('Deactivated')).toBeInTheDocument();
    expect(screen.queryByText('ana@example.pt')).toBeInTheDocument();
    // The id column is hidden.
    expect(screen.queryByRole('columnheader', { name: 'Id' })).not.toBeInTheDocument();
  });

  test('Deactivate only for confirmed users, Resend confirmation email only for the others', async () => {
    const sent = renderAs('Administrator');
    const ana = await rowOf('Ana Admin');
    const nuno = await rowOf('Nuno Novo');
    const dora = await rowOf('Dora Gone');
    expect(within(ana).getByRole('button', { name: 'Deactivate' })).toBeInTheDocument();
    expect(within(ana).queryByRole('button', { name: 'Resend confirmation email' })).not.toBeInTheDocument();
    expect(within(nuno).queryByRole('button', { name: 'Deactivate' })).not.toBeInTheDocument();
    expect(within(dora).queryByRole('button', { name: 'Deactivate' })).not.toBeInTheDocument();

    fireEvent.click(within(nuno).getByRole('button', { name: 'Resend confirmation email' }));
    expect(await screen.findByText('Confirmation email sent!')).toBeInTheDocument();
    // Where every toast of the console goes (specification §9), not antd's top-centre message.
    expect(document.querySelector('.ant-notification-bottomRight')).toHaveTextContent('Confirmation email sent!');
    expect(document.querySelector('.ant-message')).toBeNull();
    expect(sent).toContainEqual({ method: 'POST', url: 'Users/ResendConfirmationEmail', body: { userId: 2 } });
  });

  test('Reactivate only for deactivated users: it asks first, then reactivates (issue 47)', async () => {
    const sent = renderAs('Administrator');
    const dora = await rowOf('Dora Gone');
    expect(within(await rowOf('Ana Admin')).queryByRole('button', { name: 'Reactivate' })).not.toBeInTheDocument();
    expect(within(await rowOf('Nuno Novo')).queryByRole('button', { name: 'Reactivate' })).not.toBeInTheDocument();
    fireEvent.click(within(dora).getByRole('button', { name: 'Reactivate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reactivate Dora Gone?' });
    expect(sent).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reactivate' }));
    await waitFor(() => expect(sent).toContainEqual({ method: 'POST', url: 'Users/ReactivateUser', body: { userId: 3 } }));
  });

  test('Delete asks first, then deletes', async () => {
    const sent = renderAs('Administrator');
    fireEvent.click(within(await rowOf('Nuno Novo')).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Nuno Novo?' });
    expect(sent).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(sent).toContainEqual({ method: 'DELETE', url: 'Users/DeleteUser', body: { userId: 2 } }));
    expect(await screen.findByText('User deleted.')).toBeInTheDocument();
  });

  test('Add user: is required under each required field once touched; Save sends the form', async () => {
    const sent = renderAs('Manager');
    // Plain DOM queries where the page is large: role queries over a whole antd page take seconds in jsdom.
    await rowOf('Ana Admin');
    fireEvent.click(buttonNamed('Add'));
    const dialog = await waitFor(() => {
      const open = document.querySelector<HTMLElement>('.ant-modal');
      if (!open) throw new Error('no dialog yet');
      return open;
    });
    expect(within(dialog).getByText('Add user')).toBeInTheDocument();
    fireEvent.click(buttonNamed('Save', dialog));
    await waitFor(() => expect(within(dialog).getAllByText('is required')).toHaveLength(4));
    expect(sent).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText('First name'), { target: { value: 'Nova' } });
    fireEvent.change(within(dialog).getByLabelText('Last name'), { target: { value: 'Pessoa' } });
    fireEvent.change(within(dialog).getByLabelText('Email'), { target: { value: 'nova@example.pt' } });
    fireEvent.mouseDown(within(dialog).getByLabelText('Role'));
    // A Manager is offered what the server says they may assign: no Administrator.
    const option = (title: string) => document.querySelector(`.ant-select-item-option[title="${title}"]`);
    await waitFor(() => expect(option('Client')).not.toBeNull());
    expect(option('Administrator')).toBeNull();
    fireEvent.click(option('Client') as Element);
    fireEvent.click(buttonNamed('Save', dialog));
    await waitFor(() =>
      expect(sent).toContainEqual({
        method: 'POST',
        url: 'Users/CreateUser',
        body: { firstname: 'Nova', lastname: 'Pessoa', email: 'nova@example.pt', roleId: 5, operatorIds: [], projectIds: [] },
      }),
    );
    expect(await screen.findByText('New user created!')).toBeInTheDocument();
    expect(document.querySelector('.ant-notification-bottomRight')).toHaveTextContent('New user created!');
  });

  test('the audit trail is a tab for Administrators only', async () => {
    renderAs('Administrator');
    expect(await screen.findByRole('tab', { name: 'Audit trail' })).toBeInTheDocument();
  });

  test('a Manager has no audit trail tab', async () => {
    renderAs('Manager');
    await rowOf('Ana Admin');
    expect(screen.queryByRole('tab', { name: 'Audit trail' })).not.toBeInTheDocument();
  });
});

test('nobody is offered to deactivate or delete their own account', async () => {
  renderAs('Administrator', { id: 1, firstname: 'Ana', lastname: 'Admin', role: 'Administrator', operator: null, projects: ['Operations'], avatar: null });
  const ana = await rowOf('Ana Admin');
  await waitFor(() => expect(within(ana).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument());
  expect(within(ana).queryByRole('button', { name: 'Deactivate' })).not.toBeInTheDocument();
  expect(within(ana).getByRole('button', { name: 'Edit' })).toBeInTheDocument();
});
