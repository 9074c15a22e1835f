import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReportColumn, ReportTable, SiteMapResponse, SiteReport } from 'contracts';
import SiteReportPage from './siteReport';
import {
  buttonNamed,
  catchDownloads,
  fakeApi,
  locationNow,
  refusal,
  renderPage,
  rowsOf,
  signIn,
  tableCaptioned,
  type Answers,
} from '../../testing/monitoringKit';

// The map's stylesheet comes from the built remote; jsdom has no 2D canvas, so the markers draw into a context that accepts every call.
jest.mock('../../map/leafletCss', () => ({ loadLeafletCss: () => Promise.resolve() }));
beforeAll(() => {
  const context = new Proxy({} as Record<string | symbol, unknown>, {
    get: (target, key) => (key in target ? target[key] : () => undefined),
    set: (target, key, value) => {
      target[key] = value;
      return true;
    },
  });
  HTMLCanvasElement.prototype.getContext = (() => context) as unknown as typeof HTMLCanvasElement.prototype.getContext;
});

const SITE_MAP: SiteMapResponse = {
  sites: [
    {
      id: 'LX0001',
      name: 'Lisboa Centro',
      lat: 38.71,
      lon: -9.14,
      technologies: ['4G'],
      status: 'NOK',
      alarmStatus: 'NOK',
      radioStatus: 'OK',
      coreStatus: 'OK',
      trackerId: 3,
      sharedWith: null,
      shareMode: null,
    },
    {
      id: 'LX0002',
      name: 'Alfama',
      lat: 38.71,
      lon: -9.13,
      technologies: ['5G'],
      status: 'OK',
      alarmStatus: 'OK',
      radioStatus: 'OK',
      coreStatus: 'OK',
      trackerId: null,
      sharedWith: null,
      shareMode: null,
    },
  ],
  withoutCoordinates: 0,
  tileUrl: 'http://127.0.0.1:9/{z}/{x}/{y}.png',
};

const column = (name: string, label: string, kind: ReportColumn['options']['kind'] = 'text', display = true): ReportColumn => ({
  name,
  label,
  options: { display, filter: true, sort: true, kind },
  filterType: 'multiselect',
});

const table = (TableName: string, TabName: ReportTable['TabName'], TableStructure: ReportColumn[], TableData: ReportTable['TableData']): ReportTable => ({
  TableName,
  TabName,
  TableStructure,
  TableData,
});

const REPORT: SiteReport = {
  siteId: 'LX0001',
  siteName: 'Lisboa Centro',
  sharedWith: null,
  shareMode: null,
  logsDate: '2026-05-01T10:00:00Z',
  tables: [
    table(
      'Site Summary',
      'Summary',
      [
        column('nodeName', 'Node Name'),
        column('logsDate', 'Logs Date', 'date'),
        column('alarmStatus', 'Alarm Status', 'status'),
        column('internal', 'Internal', 'text', false),
      ],
      [
        { nodeName: 'ERBS_LX0001_A', logsDate: '2026-05-01T10:00:00Z', alarmStatus: 'NOK', internal: 'hidden' },
        { nodeName: 'NR_LX0001_A', logsDate: null, alarmStatus: 'OK', internal: 'hidden' },
      ],
    ),
    table('Commissioning Information', 'Summary', [column('technology', 'Technology'), column('week', 'Week', 'number')], [{ technology: '4G', week: 10 }]),
    table('RET Information', 'RET Information', [column('node', 'Node'), column('tilt', 'Tilt (°)', 'number')], [{ node: 'ERBS_LX0001_A', tilt: 2.5 }]),
    table('Alarms', 'Alarms', [column('AlarmName', 'Alarm Name')], []),
    ...(['2G', '3G', '4G', '5G', 'NBIoT'] as const).map((tech) =>
      table(
        `Configuration Check ${tech}`,
        `Configuration Check ${tech}`,
        [column('check', 'Check'), column('status', 'Status', 'status')],
        tech === '4G' ? [{ check: 'cellBarred', status: 'NOK' }] : [],
      ),
    ),
  ],
};

function serve(more: Answers = {}) {
  return fakeApi({
    'Monitoring/GetSiteList': (params: Record<string, unknown>) =>
      [
        { value: 'LX0001', text: 'LX0001 – Lisboa Centro' },
        { value: 'LX0002', text: 'LX0002 – Alfama' },
      ].filter((o) => o.text.toLowerCase().includes(String(params.query ?? '').toLowerCase())),
    'Monitoring/GetSiteReport': (params: Record<string, unknown>) => ({ ...REPORT, siteId: params.siteId }),
    'Monitoring/GetSiteReportExcel': { file: 'report-1' },
    'Monitoring/GetReportRecipients': [
      { id: 7, name: 'Eva Engineer', email: 'eva@cellwise.local' },
      { id: 8, name: 'Rui Rigger', email: 'rui@cellwise.local' },
    ],
    'Monitoring/SendSiteReport': (body: Record<string, unknown>) => ({ message: `Report sent to ${(body.userIds as number[]).length} recipients.` }),
    'Monitoring/GetAlarmChanges': [],
    'Monitoring/GetSiteMap': SITE_MAP,
    ...more,
  });
}

const cardTitled = (title: string) =>
  Array.from(document.querySelectorAll<HTMLElement>('.ant-card')).find((c) => c.querySelector('.ant-card-head-title')?.textContent === title);

const tabNamed = (name: string) => {
  const tab = Array.from(document.querySelectorAll<HTMLElement>('.ant-tabs-tab-btn')).find((t) => t.textContent === name);
  if (!tab) throw new Error(`no tab ${name}`);
  return tab;
};

let saved: string[];
beforeEach(() => {
  signIn('CellwiseOS', 7);
  saved = catchDownloads();
});
afterEach(() => jest.restoreAllMocks());

describe('Site Report', () => {
  test('without a site: both report buttons are disabled and the page says what to do; choosing a site loads its report and the URL follows', async () => {
    const api = serve();
    await renderPage(SiteReportPage, '/monitoring/siteReport');
    expect(screen.getByText('Choose a site to see its report.')).toBeInTheDocument();
    expect(buttonNamed(/Email Report/)).toBeDisabled();
    expect(buttonNamed(/Excel Report/)).toBeDisabled();
    await waitFor(() => expect(api.to('Monitoring/GetSiteList')).toHaveLength(1));
    expect(api.to('Monitoring/GetSiteList')[0]!.params).toEqual({ query: '' });

    const select = document.querySelector('.ant-select')!;
    fireEvent.mouseDown(select.querySelector('input') ?? select);
    const option = await waitFor(() => {
      const found = Array.from(document.querySelectorAll<HTMLElement>('.ant-select-item-option')).find((o) => o.textContent === 'LX0002 – Alfama');
      if (!found) throw new Error('no option yet');
      return found;
    });
    await act(async () => {
      fireEvent.click(option);
    });
    await waitFor(() => expect(api.to('Monitoring/GetSiteReport')).toHaveLength(1));
    expect(api.to('Monitoring/GetSiteReport')[0]!.params).toEqual({ siteId: 'LX0002' });
    expect(locationNow()).toBe('/monitoring/siteReport?siteId=LX0002');
    await waitFor(() => expect(buttonNamed(/Excel Report/)).toBeEnabled());
  });

  test('?siteId= loads the report at once; Summary shows its two tables (displayed columns only, statuses as tags); every tab renders its tables', async () => {
    const api = serve();
    await renderPage(SiteReportPage, '/monitoring/siteReport?siteId=LX0001');
    await waitFor(() => expect(rowsOf('Site Summary')).toHaveLength(2));
    expect(api.to('Monitoring/GetSiteReport')[0]!.params).toEqual({ siteId: 'LX0001' });
    expect(screen.getByText('Logs date: 01-05-2026 10:00:00')).toBeInTheDocument();
    expect(Array.from(document.querySelectorAll('.ant-tabs-tab-btn')).map((t) => t.textContent)).toEqual([
      'Summary',
      'RET Information',
      'Alarms',
      'Configuration Check 2G',
      'Configuration Check 3G',
      'Configuration Check 4G',
      'Configuration Check 5G',
      'Configuration Check NBIoT',
    ]);
    expect(rowsOf('Site Summary')).toEqual([
      ['ERBS_LX0001_A', '01-05-2026 10:00:00', 'NOK'],
      ['NR_LX0001_A', '', 'OK'],
    ]);
    const headers = Array.from(tableCaptioned('Site Summary').querySelectorAll('.ant-table-header th')).map((h) => h.textContent);
    expect(headers).not.toContain('Internal');
    const tags = tableCaptioned('Site Summary').querySelectorAll('.ant-tag');
    expect(tags[0]!.className).toMatch(/red/);
    expect(tags[1]!.className).toMatch(/green/);
    expect(rowsOf('Commissioning Information')).toEqual([['4G', '10']]);

    fireEvent.click(tabNamed('RET Information'));
    await waitFor(() => expect(rowsOf('RET Information')).toEqual([['ERBS_LX0001_A', '2.5']]));
    fireEvent.click(tabNamed('Alarms'));
    expect(await screen.findByText('Nothing in Alarms for this site.')).toBeInTheDocument();
    fireEvent.click(tabNamed('Configuration Check 4G'));
    await waitFor(() => expect(rowsOf('Configuration Check 4G')).toEqual([['cellBarred', 'NOK']]));
  });

  test('the tab bar wraps rather than hiding tabs behind its menu; on a phone each table row is a block of labels beside their values, statuses as tags', async () => {
    // What a 390 px screen answers: below antd's sm breakpoint (576 px) only.
    jest.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) =>
        ({
          matches: /max-width:\s*575/.test(query),
          media: query,
          onchange: null,
          addListener: () => undefined,
          removeListener: () => undefined,
          addEventListener: () => undefined,
          removeEventListener: () => undefined,
          dispatchEvent: () => false,
        }) as unknown as MediaQueryList,
    );
    serve();
    await renderPage(SiteReportPage, '/monitoring/siteReport?siteId=LX0001');
    const summary = await screen.findByRole('region', { name: 'Site Summary' });
    expect(document.querySelector('.cw-report-tabs')).not.toBeNull();
    expect(document.head.querySelector('style[data-href="cw-report-tabs"], style[href="cw-report-tabs"]')?.textContent).toContain('flex-wrap: wrap');
    // No sideways table: one block per row, the displayed columns only, values as the table shows them.
    expect(summary.querySelector('.ant-table')).toBeNull();
    const blocks = Array.from(summary.querySelectorAll('.ant-descriptions'));
    expect(
      blocks.map((block) =>
        Array.from(block.querySelectorAll('.ant-descriptions-item-label')).map((label) => [label.textContent, label.nextElementSibling!.textContent]),
      ),
    ).toEqual([
      [
        ['Node Name', 'ERBS_LX0001_A'],
        ['Logs Date', '01-05-2026 10:00:00'],
        ['Alarm Status', 'NOK'],
      ],
      [
        ['Node Name', 'NR_LX0001_A'],
        ['Logs Date', ''],
        ['Alarm Status', 'OK'],
      ],
    ]);
    expect(blocks[0]!.querySelector('.ant-tag')!.className).toMatch(/red/);
    expect(within(screen.getByRole('region', { name: 'Commissioning Information' })).getByText('10')).toBeInTheDocument();
    fireEvent.click(tabNamed('Alarms'));
    expect(await screen.findByText('Nothing in Alarms for this site.')).toBeInTheDocument();
  });

  test("a shared site's header says 'shared with X' beside its name; a site not shared says nothing of it", async () => {
    serve({
      'Monitoring/GetSiteReport': (params: Record<string, unknown>) =>
        params.siteId === 'LX0002'
          ? { ...REPORT, siteId: 'LX0002', siteName: 'Alfama', sharedWith: 'Vodafone PT', shareMode: 'MOCN' }
          : { ...REPORT, siteId: params.siteId },
    });
    await renderPage(SiteReportPage, '/monitoring/siteReport?siteId=LX0002');
    const mark = await screen.findByText('shared with Vodafone PT (MOCN)');
    expect(mark.closest('.ant-tag')).not.toBeNull();
    // Beside the report's header, the site's id and name.
    expect(mark.previousElementSibling?.textContent).toBe('LX0002 – Alfama');
  });

  test('a site not shared: no sharing mark in its header', async () => {
    serve();
    await renderPage(SiteReportPage, '/monitoring/siteReport?siteId=LX0001');
    await waitFor(() => expect(rowsOf('Site Summary')).toHaveLength(2));
    expect(screen.queryByText(/shared with/)).toBeNull();
  });

  test("'Excel Report' downloads the workbook; 'Email Report' sends it to the users chosen (the user to start with) and says so", async () => {
    const api = serve();
    await renderPage(SiteReportPage, '/monitoring/siteReport?siteId=LX0001');
    await waitFor(() => expect(buttonNamed(/Excel Report/)).toBeEnabled());
    await act(async () => {
      fireEvent.click(buttonNamed(/Excel Report/));
    });
    await waitFor(() => expect(saved).toEqual(['report-1.xlsx']));
    expect(api.to('Monitoring/GetSiteReportExcel')[0]!.params).toEqual({ siteId: 'LX0001' });
    expect(api.to('File/Download')[0]!.params).toEqual({ file: 'report-1' });

    await act(async () => {
      fireEvent.click(buttonNamed(/Email Report/));
    });
    const dialog = (await screen.findByText(/Each recipient gets the workbook/, undefined, { timeout: 20_000 })).closest<HTMLElement>('.ant-modal')!;
    expect(dialog.textContent).toContain('Email the report of LX0001');
    await waitFor(() => expect(dialog.textContent).toContain('Eva Engineer <eva@cellwise.local>'));
    const select = dialog.querySelector('.ant-select')!;
    fireEvent.mouseDown(select.querySelector('input') ?? select);
    const option = await waitFor(() => {
      const found = Array.from(document.querySelectorAll<HTMLElement>('.ant-select-item-option')).find(
        (o) => o.textContent === 'Rui Rigger <rui@cellwise.local>',
      );
      if (!found) throw new Error('no option yet');
      return found;
    });
    await act(async () => {
      fireEvent.click(option);
    });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    });
    expect(await screen.findByText('Report sent to 2 recipients.')).toBeInTheDocument();
    expect(api.to('Monitoring/SendSiteReport')[0]!.body).toEqual({ siteId: 'LX0001', userIds: [7, 8] });
  });

  test('an unknown site says so where the report would be, and no map is shown', async () => {
    serve({ 'Monitoring/GetSiteReport': () => Promise.reject(refusal(404, 'Site XX9 not found.')) });
    await renderPage(SiteReportPage, '/monitoring/siteReport?siteId=XX9');
    expect(await screen.findByText('Site XX9 not found.')).toBeInTheDocument();
    await waitFor(() => expect(cardTitled('Map')).toBeUndefined());
  });

  test('the Map card shows the chosen site on the map, its popup open, and follows another choice', async () => {
    serve();
    await renderPage(SiteReportPage, '/monitoring/siteReport?siteId=LX0001');
    const popup = () => cardTitled('Map')?.querySelector('.leaflet-popup-content')?.textContent ?? '';
    await waitFor(() => expect(popup()).toContain('LX0001 – Lisboa Centro'), { timeout: 15000 });
    expect(popup()).toContain('Tracker row');
    expect(cardTitled('Map')!.querySelector('.leaflet-container')!.getAttribute('data-drawn-sites')).toBe('2');

    const select = document.querySelector('.ant-select')!;
    fireEvent.mouseDown(select.querySelector('input') ?? select);
    const option = await waitFor(() => {
      const found = Array.from(document.querySelectorAll<HTMLElement>('.ant-select-item-option')).find((o) => o.textContent === 'LX0002 – Alfama');
      if (!found) throw new Error('no option yet');
      return found;
    });
    await act(async () => {
      fireEvent.click(option);
    });
    await waitFor(() => expect(popup()).toContain('LX0002 – Alfama'), { timeout: 15000 });
    expect(popup()).not.toContain('Tracker row');
  });
});
