import { render, screen } from '@testing-library/react';
import type { AxiosResponse } from 'axios';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { OperatorDetails } from 'api/contracts';
import { api } from 'shared-auth';
import { ConsoleProviders } from 'shared-ui';
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
  const get = jest.spyOn(api, 'get').mockImplementation(() => Promise.resolve({ data: NOS } as AxiosResponse<OperatorDetails>));
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

  test('without an operator id in router state it renders nothing and asks for nothing', () => {
    const get = renderAt('/management/operators/details/overview');
    expect(document.querySelector('.cw-page')).toBeNull();
    expect(get).not.toHaveBeenCalled();
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
});
