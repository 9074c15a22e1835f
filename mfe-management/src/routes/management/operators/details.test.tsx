import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { OperatorDetails } from 'contracts';
import { api, type ApiResponse } from 'shared-auth';
import { ConsoleProviders, MAX_UPLOAD_BYTES, uploadLimitText } from 'shared-ui';
import OperatorDetailsPage from './details';

const NOS: OperatorDetails = {
  id: 7,
  name: 'NOS',
  avatar: null,
  users: 1,
  projects: 1,
  projectList: [{ id: 70, name: 'Operations', users: 1, operatorId: 7 }],
  userList: [{ id: 3, name: 'Pedro Santos' }],
};

function renderAt(path: string, state?: unknown) {
  const get = jest.spyOn(api, 'get').mockImplementation(() => Promise.resolve({ data: NOS } as ApiResponse<OperatorDetails>));
  render(
    <ConsoleProviders>
      <MemoryRouter initialEntries={[{ pathname: path, state }]}>
        <Routes>
          <Route path="/management/operators/details/:tab?" element={<OperatorDetailsPage />} />
          <Route path="/management/operators" element={<p>operator grid</p>} />
          <Route path="/errors/error-404" element={<p>not found</p>} />
        </Routes>
      </MemoryRouter>
    </ConsoleProviders>,
  );
  return get;
}

afterEach(() => jest.restoreAllMocks());

describe('/management/operators/details/:tab', () => {
  test('no tab goes back to the operator grid', async () => {
    renderAt('/management/operators/details', { operatorId: 7 });
    expect(await screen.findByText('operator grid')).toBeInTheDocument();
  });

  test('an unknown tab goes to the 404 page', async () => {
    renderAt('/management/operators/details/billing', { operatorId: 7 });
    expect(await screen.findByText('not found')).toBeInTheDocument();
  });

  test('without an operator id in router state (a bookmark) it shows no details, asks for nothing, and points to the operator grid', async () => {
    const get = renderAt('/management/operators/details/overview');
    expect(screen.queryByRole('tab')).toBeNull();
    expect(get).not.toHaveBeenCalled();
    const back = screen.getByRole('link', { name: 'Open the operators' });
    expect(back).toHaveAttribute('href', '/management/operators');
    fireEvent.click(back);
    expect(await screen.findByText('operator grid')).toBeInTheDocument();
  });

  test('the id comes from router state; each tab shows its part', async () => {
    const get = renderAt('/management/operators/details/projects', { operatorId: 7 });
    expect(await screen.findByText('All projects')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Add project/ })).toBeInTheDocument();
    expect(get).toHaveBeenCalledWith('Operators/GetOperator?operatorId=7', expect.anything());
    expect(screen.getByRole('tab', { name: 'Overview' })).toBeInTheDocument();
  });

  test('overview: picture card and name form', async () => {
    renderAt('/management/operators/details/overview', { operatorId: 7 });
    expect(await screen.findByRole('button', { name: /Add picture/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove picture' })).toBeDisabled();
    expect(screen.getByLabelText('Name')).toHaveValue('NOS');
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeInTheDocument();
  });

  test("'Operator updated!' and 'New project created!' are toasts like every other: bottom right, none top centre", async () => {
    renderAt('/management/operators/details/overview', { operatorId: 7 });
    const post = jest.spyOn(api, 'post').mockResolvedValue({ data: { message: 'ok' } } as ApiResponse);
    const save = await screen.findByRole('button', { name: 'Save Changes' }, { timeout: 15_000 });
    await act(async () => fireEvent.click(save));
    await waitFor(() => expect(post).toHaveBeenCalledWith('Operators/UpdateOperator', { id: 7, name: 'NOS' }));
    const corner = () => document.querySelector<HTMLElement>('.ant-notification-bottomRight');
    await waitFor(() => expect(corner()).toHaveTextContent('Operator updated!'));

    fireEvent.click(screen.getByRole('tab', { name: 'Projects' }));
    fireEvent.click(await screen.findByRole('button', { name: /Add project/ }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog', {}, { timeout: 15_000 });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Swap 2027' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save' })));
    await waitFor(() => expect(corner()).toHaveTextContent('New project created!'));
    expect(document.querySelector('.ant-message')).toBeNull();
  });

  test('the picture card says the size limit in the words of every drop zone', async () => {
    renderAt('/management/operators/details/overview', { operatorId: 7 });
    expect(await screen.findByText(`PNG only. ${uploadLimitText(MAX_UPLOAD_BYTES)}.`, {}, { timeout: 15_000 })).toBeInTheDocument();
  });
});
