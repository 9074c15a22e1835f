import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type * as ChartJs from 'chart.js';
import type { ChartConfiguration } from 'chart.js';
import type { RolloutStats } from 'contracts';
import { fakeApi, locationNow, refusal, renderPage, signIn } from '../testing/monitoringKit';
import RolloutCharts from './RolloutCharts';
import { alarmsChart, commissionedChart, isEmpty, rolloutCharts, trackerStatusChart, weekNumber, workOrdersChart } from './charts/rollout';

type BarConfig = ChartConfiguration<'bar', number[], string>;

// jsdom has no canvas: the charts' configurations are recorded instead of drawn, and a test "clicks a
// bar" by calling the configuration's onClick with the bar chart.js would have found under the pointer.
const drawn: Array<{ canvas: HTMLCanvasElement; config: BarConfig; destroyed: boolean }> = [];
jest.mock('chart.js', () => {
  const actual = jest.requireActual<typeof ChartJs>('chart.js');
  class RecordingChart {
    static register = jest.fn();
    private entry: (typeof drawn)[number];
    constructor(canvas: HTMLCanvasElement, config: BarConfig) {
      this.entry = { canvas, config, destroyed: false };
      drawn.push(this.entry);
    }
    destroy() {
      this.entry.destroyed = true;
    }
  }
  return { ...actual, Chart: RecordingChart };
});

/** The query string the shared table reads its first filters from (shared-ui filtersFromSearch). */
const f = (filters: Record<string, string>) => `?${new URLSearchParams({ filters: JSON.stringify(filters) }).toString()}`;

const STATS: RolloutStats = {
  weeks: ['2026-W08', '2026-W09', '2026-W10'],
  commissionedPerWeek: [
    { week: '2026-W08', planned: 3, done: 1 },
    { week: '2026-W09', planned: 0, done: 2 },
    { week: '2026-W10', planned: 5, done: 0 },
  ],
  trackerStatus: [
    { status: 'In progress', count: 4 },
    { status: 'Open', count: 7 },
    { status: 'No status', count: 2 },
    { status: 'Waiting access', count: 0 },
  ],
  openWorkOrdersByType: [
    { type: 'Installation', count: 9 },
    { type: 'Integration', count: 3 },
  ],
  alarmsBySeverityPerWeek: [
    { week: '2026-W08', severity: 'Critical', count: 1 },
    { week: '2026-W08', severity: 'Warning', count: 4 },
    { week: '2026-W10', severity: 'Major', count: 2 },
    { week: '2026-W10', severity: 'Indeterminate', count: 1 },
  ],
};

const EMPTY: RolloutStats = {
  weeks: ['2026-W09', '2026-W10'],
  commissionedPerWeek: [
    { week: '2026-W09', planned: 0, done: 0 },
    { week: '2026-W10', planned: 0, done: 0 },
  ],
  trackerStatus: [],
  openWorkOrdersByType: [],
  alarmsBySeverityPerWeek: [{ week: '2026-W10', severity: 'Critical', count: 0 }],
};

const live = (id: string) => {
  const found = drawn.filter((d) => !d.destroyed && d.canvas.dataset.chart === id).at(-1);
  if (!found) throw new Error(`no chart ${id}`);
  return found.config;
};
const clickBar = (config: BarConfig, datasetIndex: number, index: number) =>
  act(() => config.options!.onClick!({} as never, [{ datasetIndex, index, element: {} as never }], {} as never));
const cardTitled = (title: string) => {
  const card = Array.from(document.querySelectorAll<HTMLElement>('.ant-card')).find((c) => c.querySelector('.ant-card-head-title')?.textContent === title);
  if (!card) throw new Error(`no card ${title}`);
  return card;
};

beforeEach(() => {
  signIn('CellwiseOS', 7);
  drawn.length = 0;
});
afterEach(() => jest.restoreAllMocks());

describe('rollout chart data', () => {
  test('sites per week: planned and done per week in order; a bar opens the plan of its ISO week or the delivered tracker rows', () => {
    const chart = commissionedChart(STATS);
    expect(chart.categories).toEqual(['2026-W08', '2026-W09', '2026-W10']);
    expect(chart.series.map((s) => [s.label, s.values])).toEqual([
      ['Planned', [3, 0, 5]],
      ['Done', [1, 2, 0]],
    ]);
    expect(chart.series[0]!.links).toEqual([`/tracking/commissioningplan${f({ week: '8' })}`, null, `/tracking/commissioningplan${f({ week: '10' })}`]);
    expect(chart.series[1]!.links).toEqual([`/tracking/tracker${f({ scheduleStatus: 'Done' })}`, `/tracking/tracker${f({ scheduleStatus: 'Done' })}`, null]);
    expect(weekNumber('2026-W07')).toBe('7');
    // A week the answer skips is drawn as zero, not left out.
    expect(commissionedChart({ ...STATS, commissionedPerWeek: [] }).series[0]!.values).toEqual([0, 0, 0]);
  });

  test('tracker status and work orders: biggest first, empty groups left out, a bar opens its table filtered; "No status" opens nothing', () => {
    const status = trackerStatusChart(STATS);
    expect(status.categories).toEqual(['Open', 'In progress', 'No status']);
    expect(status.series[0]!.values).toEqual([7, 4, 2]);
    expect(status.series[0]!.links).toEqual([
      `/tracking/tracker${f({ currentStatus: 'Open' })}`,
      `/tracking/tracker${f({ currentStatus: 'In progress' })}`,
      null,
    ]);
    const orders = workOrdersChart(STATS);
    expect(orders.categories).toEqual(['Installation', 'Integration']);
    expect(orders.series[0]!.links).toEqual([
      `/tracking/workorderstatus${f({ woType: 'Installation' })}`,
      `/tracking/workorderstatus${f({ woType: 'Integration' })}`,
    ]);
  });

  test('alarms: one stack per severity (Critical, Major, Minor, Warning, then others), per week; a bar opens the alarm list of its severity', () => {
    const chart = alarmsChart(STATS);
    expect(chart.stacked).toBe(true);
    expect(chart.series.map((s) => [s.label, s.values])).toEqual([
      ['Critical', [1, 0, 0]],
      ['Major', [0, 0, 2]],
      ['Minor', [0, 0, 0]],
      ['Warning', [4, 0, 0]],
      ['Indeterminate', [0, 0, 1]],
    ]);
    expect(chart.series[0]!.links).toEqual([`/monitoring/faultManagement${f({ severity: 'Critical' })}`, null, null]);
    expect(chart.series[1]!.links[2]).toBe(`/monitoring/faultManagement${f({ severity: 'Major' })}`);
  });

  test('a chart is empty when every bar is zero', () => {
    expect([commissionedChart(EMPTY), trackerStatusChart(EMPTY), workOrdersChart(EMPTY), alarmsChart(EMPTY)].map(isEmpty)).toEqual([true, true, true, true]);
    expect(isEmpty(alarmsChart(STATS))).toBe(false);
  });
});

describe('RolloutCharts', () => {
  test('four charts from Dashboard/GetRollout, coloured from the theme (severities red, orange, gold, blue), horizontal bars for named groups', async () => {
    const api = fakeApi({ 'Dashboard/GetRollout': STATS });
    await renderPage(RolloutCharts, '/dashboards/dashboardRollout');
    await waitFor(() => expect(drawn.filter((d) => !d.destroyed)).toHaveLength(4));
    expect(api.to('Dashboard/GetRollout')[0]!.params).toEqual({ weeks: 12 });
    expect(Array.from(document.querySelectorAll('.ant-card-head-title')).map((t) => t.textContent)).toEqual([
      'Sites commissioned per week',
      'Tracker status',
      'Open work orders by type',
      'Alarms by severity per week',
    ]);
    const commissioned = live('commissioned');
    expect(commissioned.data.labels).toEqual(['W08', 'W09', 'W10']);
    expect(commissioned.data.datasets.map((d) => [d.label, d.data])).toEqual([
      ['Planned', [3, 0, 5]],
      ['Done', [1, 2, 0]],
    ]);
    expect(commissioned.data.datasets[1]!.backgroundColor).toBe('#0b6e79');
    expect(live('trackerStatus').options!.indexAxis).toBe('y');
    const alarms = live('alarms');
    expect(alarms.options!.scales!.x!.stacked).toBe(true);
    expect(alarms.options!.scales!.y!.stacked).toBe(true);
    // antd's preset red, orange, gold and blue (-6); the extra severity is neutral.
    expect(alarms.data.datasets.map((d) => [d.label, d.backgroundColor])).toEqual([
      ['Critical', '#F5222D'],
      ['Major', '#FA8C16'],
      ['Minor', '#FAAD14'],
      ['Warning', '#1677FF'],
      ['Indeterminate', 'rgba(0,0,0,0.25)'],
    ]);
    expect(screen.getByRole('img', { name: /^Tracker status: 13 sites in 3 groups\./ })).toBeInTheDocument();
  });

  test('a click on a bar opens the filtered table; a click beside the bars or on a bar with nothing to open stays', async () => {
    fakeApi({ 'Dashboard/GetRollout': STATS });
    await renderPage(RolloutCharts, '/dashboards/dashboardRollout');
    await waitFor(() => expect(drawn.filter((d) => !d.destroyed)).toHaveLength(4));
    const status = live('trackerStatus');
    act(() => status.options!.onClick!({} as never, [], {} as never));
    clickBar(status, 0, 2);
    expect(locationNow()).toBe('/dashboards/dashboardRollout');
    clickBar(status, 0, 1);
    await waitFor(() => expect(locationNow()).toBe(`/tracking/tracker${f({ currentStatus: 'In progress' })}`));
  });

  test('the table view lists every bar, and a bar with rows is a link to the same filtered table', async () => {
    fakeApi({ 'Dashboard/GetRollout': STATS });
    await renderPage(RolloutCharts, '/dashboards/dashboardRollout');
    const card = await waitFor(() => cardTitled('Alarms by severity per week'));
    act(() => fireEvent.click(within(card).getByText('Table')));
    const table = await waitFor(() => card.querySelector('table')!);
    expect(Array.from(table.querySelectorAll('thead th')).map((th) => th.textContent)).toEqual([
      'Week',
      'Critical',
      'Major',
      'Minor',
      'Warning',
      'Indeterminate',
    ]);
    expect(Array.from(table.querySelectorAll('tbody tr')).map((tr) => Array.from(tr.children).map((c) => c.textContent))).toEqual([
      ['2026-W08', '1', '0', '0', '4', '0'],
      ['2026-W09', '0', '0', '0', '0', '0'],
      ['2026-W10', '0', '2', '0', '0', '1'],
    ]);
    const link = within(table).getByRole('link', { name: 'Major, 2026-W10: 2 alarms. Open the filtered table' });
    expect(within(table).getAllByRole('link')).toHaveLength(4);
    act(() => fireEvent.click(link));
    await waitFor(() => expect(locationNow()).toBe(`/monitoring/faultManagement${f({ severity: 'Major' })}`));
  });

  test("a Client gets the figures without the engineering tables' links: no bar or number opens the 401 page", async () => {
    signIn('Client', 9, { id: 2, name: 'NOS' });
    fakeApi({ 'Dashboard/GetRollout': STATS });
    await renderPage(RolloutCharts, '/dashboards/dashboardRollout');
    await waitFor(() => expect(drawn.filter((d) => !d.destroyed)).toHaveLength(4));
    const card = cardTitled('Alarms by severity per week');
    act(() => fireEvent.click(within(card).getByText('Table')));
    const table = await waitFor(() => card.querySelector('table')!);
    // The same figures as an engineer's, with no link among them.
    expect(Array.from(table.querySelectorAll('tbody tr')).map((tr) => Array.from(tr.children).map((c) => c.textContent))[2]).toEqual([
      '2026-W10',
      '0',
      '2',
      '0',
      '0',
      '1',
    ]);
    expect(document.querySelectorAll('[data-testid="rollout-charts"] a')).toHaveLength(0);
    const status = live('trackerStatus');
    clickBar(status, 0, 1);
    expect(locationNow()).toBe('/dashboards/dashboardRollout');
  });

  test('the links follow the capabilities of each page they open', () => {
    const links = (may: (c: string) => boolean) => rolloutCharts(STATS, may).flatMap((c) => c.series.flatMap((s) => s.links.filter((l) => l !== null)));
    const pages = (list: string[]) => [...new Set(list.map((l) => l.split('?')[0]))].sort();
    expect(pages(links(() => true))).toEqual(['/monitoring/faultManagement', '/tracking/commissioningplan', '/tracking/tracker', '/tracking/workorderstatus']);
    expect(pages(links((c) => c === 'canMonitor'))).toEqual(['/monitoring/faultManagement']);
    expect(pages(links((c) => c === 'canTrack'))).toEqual(['/tracking/commissioningplan', '/tracking/tracker', '/tracking/workorderstatus']);
    expect(links(() => false)).toEqual([]);
    // Without a judge, every link (as before).
    expect(rolloutCharts(STATS).flatMap((c) => c.series.flatMap((s) => s.links))).toEqual(
      rolloutCharts(STATS, () => true).flatMap((c) => c.series.flatMap((s) => s.links)),
    );
  });

  test('with no data each card says so instead of drawing an empty chart', async () => {
    fakeApi({ 'Dashboard/GetRollout': EMPTY });
    await renderPage(RolloutCharts, '/dashboards/dashboardRollout');
    expect(await screen.findByText('No site is planned or commissioned in these weeks.')).toBeInTheDocument();
    expect(screen.getByText('The tracker is empty.')).toBeInTheDocument();
    expect(screen.getByText('No work order is open.')).toBeInTheDocument();
    expect(screen.getByText('No active alarm was raised in these weeks.')).toBeInTheDocument();
    expect(drawn).toHaveLength(0);
  });

  test('loading shows skeletons; a refusal is shown with Retry; another window of weeks asks again', async () => {
    let calls = 0;
    let release: (stats: RolloutStats) => void = () => undefined;
    const api = fakeApi({
      'Dashboard/GetRollout': () => {
        calls += 1;
        if (calls === 1) return Promise.reject(refusal(500, 'Database unavailable.'));
        if (calls === 2) return new Promise<RolloutStats>((resolve) => (release = resolve));
        return STATS;
      },
    });
    await renderPage(RolloutCharts, '/dashboards/dashboardRollout');
    expect(await screen.findByText('Database unavailable.')).toBeInTheDocument();
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Retry' })));
    await waitFor(() => expect(document.querySelectorAll('.ant-skeleton')).toHaveLength(4));
    await act(async () => release(STATS));
    await waitFor(() => expect(drawn.filter((d) => !d.destroyed)).toHaveLength(4));

    const weeks = screen.getByLabelText('Weeks shown');
    act(() => fireEvent.click(within(weeks).getByText('26 weeks')));
    await waitFor(() => expect(api.to('Dashboard/GetRollout')).toHaveLength(3));
    expect(api.to('Dashboard/GetRollout')[2]!.params).toEqual({ weeks: 26 });
  });
});
