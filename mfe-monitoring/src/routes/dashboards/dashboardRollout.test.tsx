import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { DashboardView } from 'contracts';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { ConsoleProviders } from 'shared-ui';
import type { EmbedAdapter, EmbedRequest } from '../../dashboards/embeds/adapter';
import { fakeApi, refusal, signIn, type Answers } from '../../testing/monitoringKit';
import DashboardRolloutPage, { EMBED_LOAD_TIMEOUT_MS } from './dashboardRollout';

// The adapters are tested on their own with fake libraries; here they are fakes the test drives.
const mockCreated: Array<{ type: 'PowerBI' | 'Tableau'; request: EmbedRequest; adapter: Required<EmbedAdapter> }> = [];
function mockAdapter(type: 'PowerBI' | 'Tableau') {
  return jest.fn(async (request: EmbedRequest) => {
    const adapter = { exportPdf: jest.fn(), fullscreen: jest.fn(), dispose: jest.fn() };
    mockCreated.push({ type, request, adapter });
    return type === 'Tableau' ? adapter : { fullscreen: adapter.fullscreen, dispose: adapter.dispose };
  });
}
jest.mock('../../dashboards/embeds/powerbi', () => ({ createPowerBiEmbed: mockAdapter('PowerBI') }));
jest.mock('../../dashboards/embeds/tableau', () => ({ createTableauEmbed: mockAdapter('Tableau') }));
jest.mock('../../dashboards/RolloutCharts', () => ({ __esModule: true, default: () => <div>Native rollout charts</div> }));
jest.mock('../../map/SiteMap', () => ({ __esModule: true, default: ({ height }: { height?: number }) => <div>Site map {height}</div> }));

const POWERBI: DashboardView = {
  id: 2,
  type: 'PowerBI',
  name: 'Rollout report',
  url: 'https://app.powerbi.com/reportEmbed?reportId=r&groupId=g',
  serverId: 'powerbi',
  accessToken: 'token-1',
  expiresAt: '2026-03-02T11:00:00Z',
  native: false,
};
const TABLEAU: DashboardView = {
  ...POWERBI,
  type: 'Tableau',
  name: 'Rollout view',
  url: 'https://tableau.example.com/views/Rollout/Overview',
  serverId: 'tableau',
};
const NATIVE: DashboardView = { ...POWERBI, serverId: null, accessToken: null, expiresAt: null, native: true };

/** Inspect answers each view in turn (the last one again after that); an Error is a refusal. */
function serve(...views: Array<DashboardView | Error>) {
  let call = 0;
  const answers: Answers = {
    'Dashboard/Inspect': () => {
      const next = views[Math.min(call++, views.length - 1)]!;
      if (next instanceof Error) throw next;
      return { data: next };
    },
    'Dashboard/GetServers': { data: [] },
  };
  return fakeApi(answers);
}

let location = '';
function Where({ label }: { label: string }) {
  location = label;
  return null;
}

function show() {
  return render(
    <ConsoleProviders>
      <MemoryRouter initialEntries={['/dashboards/dashboardRollout']}>
        <Routes>
          <Route path="/dashboards/dashboardRollout" element={<DashboardRolloutPage />} />
          <Route path="/errors/error-401" element={<Where label="401" />} />
        </Routes>
      </MemoryRouter>
    </ConsoleProviders>,
  );
}

const button = (name: string) => screen.getByRole('button', { name: new RegExp(`(^|\\s)${name}$`) });
const queryButton = (name: string) => screen.queryByRole('button', { name: new RegExp(`(^|\\s)${name}$`) });
const created = async (count: number) => waitFor(() => expect(mockCreated).toHaveLength(count));

beforeEach(() => {
  mockCreated.length = 0;
  location = '';
  signIn('CellwiseHQ', 7);
});

afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

test('a Power BI dashboard: title, tabs, its token handed to the adapter, loading until loaded, then Fullscreen only', async () => {
  const api = serve(POWERBI);
  show();
  expect(screen.getByRole('heading', { name: 'Dashboard Rollout' })).toBeInTheDocument();
  expect(screen.getByRole('tab', { name: 'Dashboard' })).toBeInTheDocument();
  expect(screen.getByRole('tab', { name: 'Site map' })).toBeInTheDocument();
  await created(1);
  expect(api.to('Dashboard/Inspect')[0]!.params).toEqual({ dashboardId: 2, userId: 7 });
  const { type, request, adapter } = mockCreated[0]!;
  expect(type).toBe('PowerBI');
  expect(request.url).toBe(POWERBI.url);
  expect(request.title).toBe('Rollout report');
  expect(request.token).toEqual({ accessToken: 'token-1', expiresAt: '2026-03-02T11:00:00Z' });
  expect(request.container).toBe(screen.getByTestId('dashboard-frame'));

  expect(screen.getAllByText('Loading dashboard…').length).toBeGreaterThan(0);
  expect(button('Fullscreen')).toBeDisabled();
  expect(queryButton('Export PDF')).toBeNull();

  act(() => request.onLoaded());
  expect(screen.queryByText('Loading dashboard…')).toBeNull();
  expect(button('Fullscreen')).toBeEnabled();
  fireEvent.click(button('Fullscreen'));
  expect(adapter.fullscreen).toHaveBeenCalledTimes(1);
  expect(queryButton('Export PDF')).toBeNull();
});

test('a Tableau dashboard offers Export PDF and Fullscreen', async () => {
  serve(TABLEAU);
  show();
  await created(1);
  const { type, request, adapter } = mockCreated[0]!;
  expect(type).toBe('Tableau');
  expect(button('Export PDF')).toBeDisabled();
  act(() => request.onLoaded());
  fireEvent.click(button('Export PDF'));
  expect(adapter.exportPdf).toHaveBeenCalledTimes(1);
  fireEvent.click(button('Fullscreen'));
  expect(adapter.fullscreen).toHaveBeenCalledTimes(1);
});

test('a BI server that refuses a token (502) is said with Retry, on the page; Retry asks again and loads', async () => {
  const api = serve(refusal(502, "Power BI server 'Power BI' refused to generate an embed token (HTTP 503)."), POWERBI);
  show();
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('The dashboard could not be loaded');
  expect(alert).toHaveTextContent("Power BI server 'Power BI' refused to generate an embed token (HTTP 503).");
  expect(location).toBe('');
  expect(mockCreated).toHaveLength(0);

  fireEvent.click(button('Retry'));
  await created(1);
  expect(api.to('Dashboard/Inspect')).toHaveLength(2);
  act(() => mockCreated[0]!.request.onLoaded());
  expect(screen.queryByRole('alert')).toBeNull();
});

test("the embed's error before it loaded replaces it with the failure; Retry disposes it and embeds with a new token", async () => {
  const api = serve(POWERBI, { ...POWERBI, accessToken: 'token-2' });
  show();
  await created(1);
  act(() => mockCreated[0]!.request.onError('Power BI reported an error: LoadReportFailed'));
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('Power BI reported an error: LoadReportFailed');
  expect(screen.getByTestId('dashboard-frame').parentElement).toHaveStyle({ display: 'none' });

  fireEvent.click(button('Retry'));
  await created(2);
  expect(mockCreated[0]!.adapter.dispose).toHaveBeenCalledTimes(1);
  expect(mockCreated[1]!.request.token.accessToken).toBe('token-2');
  expect(api.to('Dashboard/Inspect')).toHaveLength(2);
});

test('an error after loading keeps the dashboard and says it with Retry', async () => {
  serve(POWERBI);
  show();
  await created(1);
  act(() => mockCreated[0]!.request.onLoaded());
  act(() => mockCreated[0]!.request.onError("The dashboard's access could not be renewed: Network error!"));
  expect(screen.getByRole('alert')).toHaveTextContent("The dashboard's access could not be renewed: Network error!");
  expect(screen.getByTestId('dashboard-frame').parentElement).toHaveStyle({ display: 'block' });
  expect(button('Fullscreen')).toBeEnabled();
});

test('a dashboard that neither loads nor fails within the timeout is said to have failed', async () => {
  jest.useFakeTimers();
  serve(TABLEAU);
  show();
  await act(async () => {
    await jest.advanceTimersByTimeAsync(100);
  });
  expect(mockCreated).toHaveLength(1);
  await act(async () => {
    await jest.advanceTimersByTimeAsync(EMBED_LOAD_TIMEOUT_MS);
  });
  expect(screen.getByRole('alert')).toHaveTextContent(`The dashboard did not load within ${EMBED_LOAD_TIMEOUT_MS / 1000} seconds.`);
  expect(button('Retry')).toBeInTheDocument();
});

test("the adapter's token refresh is a new Inspect call answering the new token", async () => {
  const api = serve(POWERBI, { ...POWERBI, accessToken: 'token-2', expiresAt: '2026-03-02T12:00:00Z' });
  show();
  await created(1);
  await expect(mockCreated[0]!.request.refreshToken()).resolves.toEqual({ accessToken: 'token-2', expiresAt: '2026-03-02T12:00:00Z' });
  expect(api.to('Dashboard/Inspect')).toHaveLength(2);
  expect(mockCreated).toHaveLength(1);
});

test('a refused refresh rejects with the API’s words', async () => {
  serve(POWERBI, refusal(502, 'Power BI could not be reached (connection failed).'));
  show();
  await created(1);
  await expect(mockCreated[0]!.request.refreshToken()).rejects.toThrow('Power BI could not be reached (connection failed).');
});

test('with no BI server the native charts show, and the map loads only on its tab', async () => {
  serve(NATIVE);
  show();
  expect(await screen.findByText('Native rollout charts')).toBeInTheDocument();
  expect(mockCreated).toHaveLength(0);
  expect(queryButton('Fullscreen')).toBeNull();
  expect(screen.queryByText(/Site map \d+/)).toBeNull();
  fireEvent.click(screen.getByRole('tab', { name: 'Site map' }));
  expect(await screen.findByText('Site map 560')).toBeInTheDocument();
});

test('leaving the page disposes the dashboard', async () => {
  serve(POWERBI);
  const { unmount } = show();
  await created(1);
  expect(mockCreated[0]!.adapter.dispose).not.toHaveBeenCalled();
  unmount();
  expect(mockCreated[0]!.adapter.dispose).toHaveBeenCalledTimes(1);
});

test('an expired session (401) goes to the 401 page', async () => {
  serve(refusal(401, 'Your session has expired.'));
  show();
  await waitFor(() => expect(location).toBe('401'));
});

test('Settings is offered to Administrators only', async () => {
  serve(NATIVE);
  show();
  await screen.findByText('Native rollout charts');
  expect(queryButton('Settings')).toBeNull();
});

test('an Administrator opens Settings on the record the page shows', async () => {
  signIn('Administrator', 1);
  serve(NATIVE);
  show();
  await screen.findByText('Native rollout charts');
  fireEvent.click(button('Settings'));
  const drawer = await screen.findByRole('dialog');
  expect(drawer).toHaveTextContent('Dashboard settings');
  expect(screen.getByLabelText('Name')).toHaveValue('Rollout report');
});
