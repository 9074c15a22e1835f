import { act, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { FrequencyPlan, RunFindingRow, RunHistoryPage, RunResponse, RunView } from 'contracts';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { publishJobProgress, type Role } from 'shared-auth';
import { ConsoleProviders } from 'shared-ui';
import {
  buttonNamed,
  catchDownloads,
  chooseOption,
  fakeApi,
  fakeRunFindings,
  fakeSheet,
  refusal,
  rowsOf,
  signIn as signInUser,
  type Answers,
} from 'shared-ui/testing';
import ParameterPlanningPage from './parameterplanning';

// ---- The session, the page and its widgets ----

/** The demo operator that owns the frequency plans the answers below list. */
function signIn(role: Role) {
  signInUser(role, 7, { id: 1, name: 'Vodafone PT' });
}

function AddressProbe() {
  const { pathname, search } = useLocation();
  return <output data-testid="address" hidden>{`${pathname}${search}`}</output>;
}
const addressNow = () => screen.getByTestId('address').textContent;

async function renderPage(address = '/planning/parameterplanning') {
  render(
    <ConsoleProviders>
      <MemoryRouter initialEntries={[address]}>
        <ParameterPlanningPage />
        <AddressProbe />
      </MemoryRouter>
    </ConsoleProviders>,
  );
  await waitFor(() => expect(document.querySelector('.ant-spin-spinning')).toBeNull(), { timeout: 5000 });
}

/** The combobox input labelled `label` (table headers carry aria-labels too, so not getByLabelText). */
function comboboxOf(label: string, scope: ParentNode = document): HTMLInputElement {
  const input = scope.querySelector<HTMLInputElement>(`input[role="combobox"][aria-label="${label}"]`);
  if (!input) throw new Error(`no select ${label}`);
  return input;
}

/** The selected values of the antd select labelled `label` (tags of a multiple select, or the single value). */
function selectedOf(label: string): string[] {
  const select = comboboxOf(label).closest('.ant-select') as HTMLElement;
  if (select.classList.contains('ant-select-multiple')) {
    return Array.from(select.querySelectorAll('.ant-select-selection-item-content')).map((t) => t.textContent ?? '');
  }
  const title = select.querySelector('.ant-select-content')?.getAttribute('title');
  return title ? [title] : [];
}

/** The open dialog titled `title`. */
function dialogTitled(title: string): Promise<HTMLElement> {
  return waitFor(() => {
    const found = Array.from(document.querySelectorAll<HTMLElement>('.ant-modal')).find((m) => m.querySelector('.ant-modal-title')?.textContent === title);
    if (!found) throw new Error(`no dialog ${title}`);
    return found;
  });
}

const chooseSite = (text: string) => chooseOption(text, comboboxOf('Sites').closest('.ant-select')!);

// ---- Answers ----

const RESULT: RunResponse = {
  runId: 12,
  file: 'export-12',
  message:
    'Parameter planning of LX0001 (AIR3227/78 on L800, L1800): 3 NR cells, 6 LTE anchors, 6 EN-DC relations, X2 to 1 eNB. LX0001 has no LTE cell on L2100: no anchor there.',
  summary: [
    { label: 'NR cells', count: 3, tone: 'ok' },
    { label: 'Missing bands', count: 1, tone: 'warning' },
  ],
  preview: {
    title: 'NR Cells',
    columns: [
      { key: 'cell', label: 'NR Cell' },
      { key: 'nrArfcn', label: 'NR-ARFCN' },
      { key: 'pci', label: 'NR PCI' },
    ],
    rows: [
      { cell: 'LX0001_N78_1', nrArfcn: 643334, pci: 300 },
      { cell: 'LX0001_N78_2', nrArfcn: 643334, pci: 301 },
      { cell: 'LX0001_N78_3', nrArfcn: 643334, pci: 302 },
    ],
    total: 3,
  },
};

/** Run 12's findings as the server lists them: its NR Cells sheet. */
const RESULT_FINDINGS = fakeRunFindings(
  {
    runId: 12,
    user: 'Eva Engineer',
    sites: 'LX0001',
    files: '',
    runDate: '2026-05-02T08:00:00Z',
    message: RESULT.message!,
    summary: RESULT.summary,
    sheets: [fakeSheet('NR Cells', ['cell', 'nrArfcn', 'pci'], 3, null, null)],
    hasFile: true,
  },
  { 'NR Cells': RESULT.preview.rows.map((values, i) => ({ rowNo: i + 1, verdict: null, values })) },
);

const HISTORY_ROW = {
  id: 12,
  user: 'Eva Engineer',
  sites: 'LX0001',
  site: 'LX0001',
  files: '',
  antenna: 'AIR3227/78',
  lteBands: 'L800, L1800, L2100',
  runDate: '2026-05-02T08:00:00Z',
  message: RESULT.message!,
  outcome: 'NR cells 3, Missing bands 1',
  hasFile: true,
};

const PLANS: FrequencyPlan[] = [
  { operatorId: 3, operatorName: 'MEO', nrArfcn: 629334, nrBandwidthMhz: 80, lteCarriers: { L800: 6400 }, updatedAt: '2026-05-01T10:00:00Z' },
  {
    operatorId: 1,
    operatorName: 'Vodafone PT',
    nrArfcn: 643334,
    nrBandwidthMhz: 100,
    lteCarriers: { L800: 6300, L1800: 1850 },
    updatedAt: '2026-05-01T10:00:00Z',
  },
];

function serve(more: Answers = {}) {
  // The history lists the run once one was asked for (whatever the run answered).
  const ran = () => served.to('Parameters/RunParameterPlanning').length;
  const served = fakeApi(
    {
      'Parameters/GetLastDumpDate': '2026-05-01T10:00:00Z',
      'Parameters/GetSiteList': (params: Record<string, unknown>) =>
        [
          { value: 'LX0001', text: 'LX0001 – Alvalade 1' },
          { value: 'LX0002', text: 'LX0002 – Alcântara 1' },
        ].filter((o) => o.text.toLowerCase().includes(String(params.query ?? '').toLowerCase())),
      'Parameters/GetPlanningHistory': (): RunHistoryPage => ({ rows: ran() > 0 ? [HISTORY_ROW] : [], total: Math.min(ran(), 1) }),
      'Parameters/RunParameterPlanning': RESULT,
      'Parameters/GetParameterPlanningExport': { file: 'export-12-again' },
      'Parameters/GetFrequencyPlans': PLANS,
      'Operators/GetOperators': [
        { id: 1, name: 'Vodafone PT', avatar: null, users: 3, projects: 3 },
        { id: 2, name: 'NOS', avatar: null, users: 2, projects: 2 },
        { id: 3, name: 'MEO', avatar: null, users: 1, projects: 2 },
      ],
      'Parameters/SaveFrequencyPlan': (body: Record<string, unknown>) => ({ ...PLANS[0], ...body, operatorName: 'MEO' }),
      ...more,
    },
    { downloadName: () => 'ParameterPlanning_LX0001.xlsx' },
  );
  return served;
}

// A page of antd selects, tables, a drawer and dialogs renders slowly in jsdom on a busy machine: the
// default 5 s would fail tests for their speed, not their behaviour.
jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 8000 });

let saved: string[];
beforeEach(() => {
  saved = catchDownloads();
});
afterEach(() => jest.restoreAllMocks());

describe('Parameter Planning', () => {
  test('banner with the dump date, the form with the specification defaults, run disabled until a site is chosen', async () => {
    signIn('CellwiseOS');
    serve();
    await renderPage();
    expect(await screen.findByText('Last dump: 01-05-2026 10:00:00')).toBeInTheDocument();
    expect(selectedOf('Antenna')).toEqual(['AIR3227/78']);
    expect(selectedOf('LTE Bands')).toEqual(['L800', 'L1800', 'L2100']);
    expect(buttonNamed(/Run Parameter Planning/)).toBeDisabled();
    expect(await screen.findByText('No runs yet.')).toBeInTheDocument();
  });

  test("without a dump the banner says 'Dump date unavailable!'", async () => {
    signIn('CellwiseOS');
    serve({ 'Parameters/GetLastDumpDate': '' });
    await renderPage();
    expect(await screen.findByText('Dump date unavailable!')).toBeInTheDocument();
  });

  test('a run follows its job, shows the verdicts and its rows, downloads the workbook when asked and reloads the history', async () => {
    signIn('CellwiseOS');
    let finish: (value: RunResponse) => void = () => undefined;
    const api = serve({
      'Parameters/GetParameterPlanningFindings': RESULT_FINDINGS,
      'Parameters/RunParameterPlanning': () =>
        new Promise<RunResponse>((resolve) => {
          finish = resolve;
        }),
    });
    await renderPage();
    await waitFor(() => expect(api.to('Parameters/GetSiteList').length).toBeGreaterThan(0));
    expect(api.to('Parameters/GetSiteList')[0]!.params).toEqual({ query: '' });
    await chooseSite('LX0001 – Alvalade 1');
    await waitFor(() => expect(buttonNamed(/Run Parameter Planning/)).toBeEnabled());
    await act(async () => {
      fireEvent.click(buttonNamed(/Run Parameter Planning/));
    });
    await waitFor(() => expect(api.to('Parameters/RunParameterPlanning')).toHaveLength(1));
    expect(api.to('Parameters/RunParameterPlanning')[0]!.params).toEqual({ siteId: 'LX0001', antenna: 'AIR3227/78', lteBands: 'L800,L1800,L2100', userId: 7 });
    expect(screen.getByText('Planning…')).toBeInTheDocument();

    act(() => {
      publishJobProgress({ id: 'job-8', kind: 'validation.cpich', state: 'running', progress: 90, text: 'Checking cells' });
      publishJobProgress({ id: 'job-1', kind: 'planning.parameters', state: 'running', progress: 30, text: 'Planning the NR cells of LX0001' });
    });
    expect(await screen.findByText('Planning the NR cells of LX0001')).toBeInTheDocument();
    expect(screen.getByLabelText('Planning progress')).toHaveAttribute('aria-valuenow', '30');
    expect(screen.queryByText('Checking cells')).toBeNull();

    const historyCalls = api.to('Parameters/GetPlanningHistory').length;
    await act(async () => {
      finish(RESULT);
    });
    expect(await screen.findByText(RESULT.message!)).toBeInTheDocument();
    const card = screen.getByTestId('run-result');
    expect(within(card).getByText('NR cells: 3')).toBeInTheDocument();
    expect(within(card).getByText('Missing bands: 1')).toBeInTheDocument();
    expect(await within(card).findByText('LX0001_N78_2')).toBeInTheDocument();
    // Shown, not downloaded: the workbook comes when asked for, through the export route.
    expect(saved).toEqual([]);
    await act(async () => {
      fireEvent.click(within(card).getByRole('button', { name: /Download workbook/ }));
    });
    await waitFor(() => expect(saved).toEqual(['ParameterPlanning_LX0001.xlsx']));
    expect(api.to('File/Download')[0]!.params).toEqual({ file: 'export-12-again' });
    expect(screen.queryByText('Planning the NR cells of LX0001')).toBeNull();

    // The history fetched again, with the specification's fields; its row downloads the run's workbook.
    await waitFor(() => expect(api.to('Parameters/GetPlanningHistory').length).toBeGreaterThan(historyCalls));
    await waitFor(() => expect(rowsOf('Parameter Planning History')).toHaveLength(1));
    expect(rowsOf('Parameter Planning History')[0]!.slice(0, 6)).toEqual([
      'Eva Engineer',
      'LX0001',
      'AIR3227/78',
      'L800, L1800, L2100',
      '02-05-2026 08:00:00',
      'NR cells 3, Missing bands 1',
    ]);
    await act(async () => {
      fireEvent.click(screen.getByLabelText('Download the workbook of run 12'));
    });
    await waitFor(() => expect(api.to('Parameters/GetParameterPlanningExport')[1]!.params).toEqual({ parameterPlanningId: 12 }));
    await waitFor(() => expect(api.to('File/Download')[1]!.params).toEqual({ file: 'export-12-again' }));
  });

  test('a refusal is said once, under the form, and nothing is downloaded', async () => {
    signIn('CellwiseOS');
    const api = serve({
      'Parameters/RunParameterPlanning': () =>
        Promise.reject(
          refusal(
            400,
            'Vodafone PT has no frequency plan: an Administrator must set it (Frequency plans, on Parameter Planning) before a parameter planning can run.',
          ),
        ),
    });
    await renderPage();
    await chooseSite('LX0002 – Alcântara 1');
    await waitFor(() => expect(buttonNamed(/Run Parameter Planning/)).toBeEnabled());
    await act(async () => {
      fireEvent.click(buttonNamed(/Run Parameter Planning/));
    });
    expect(await screen.findByTestId('planning-refusal')).toHaveTextContent(/Vodafone PT has no frequency plan/);
    expect(api.to('Parameters/RunParameterPlanning')[0]!.config).toMatchObject({ skipErrorHandling: true });
    expect(api.to('File/Download')).toHaveLength(0);
    expect(screen.queryByTestId('run-result')).toBeNull();
  });

  test('engineers read every frequency plan, without editing', async () => {
    signIn('CellwiseOS');
    const api = serve();
    await renderPage();
    await act(async () => {
      fireEvent.click(buttonNamed('Frequency plans'));
    });
    await waitFor(() => expect(rowsOf("Operators' frequency plans")).toHaveLength(2));
    expect(rowsOf("Operators' frequency plans")[1]!.slice(0, 6)).toEqual(['Vodafone PT', '643334', '100', '3600.01–3700.01 MHz', '', '6300']);
    expect(screen.getByText(/Administrators edit the plans\./)).toBeInTheDocument();
    expect(() => buttonNamed('Add plan')).toThrow();
    expect(screen.queryByLabelText('Edit the plan of MEO')).toBeNull();
    expect(api.to('Operators/GetOperators')).toHaveLength(0);
  });

  test('Administrators edit a plan (values checked before sending) and add one for an operator without', async () => {
    signIn('Administrator');
    const api = serve();
    await renderPage();
    await act(async () => {
      fireEvent.click(buttonNamed('Frequency plans'));
    });
    await waitFor(() => expect(rowsOf("Operators' frequency plans")).toHaveLength(2));
    await act(async () => {
      fireEvent.click(screen.getByLabelText('Edit the plan of MEO'));
    });
    const dialog = await dialogTitled('Frequency plan of MEO');
    const arfcn = within(dialog).getByLabelText('NR-ARFCN');
    expect(arfcn).toHaveValue('629334');
    fireEvent.change(arfcn, { target: { value: '629335' } });
    await act(async () => {
      fireEvent.click(buttonNamed('Save', dialog));
    });
    expect(await within(dialog).findByText('must be an even NR-ARFCN from 620000 to 653332')).toBeInTheDocument();
    expect(api.to('Parameters/SaveFrequencyPlan')).toHaveLength(0);

    fireEvent.change(arfcn, { target: { value: '628000' } });
    fireEvent.change(within(dialog).getByLabelText('L2100 EARFCN'), { target: { value: '550' } });
    await act(async () => {
      fireEvent.click(buttonNamed('Save', dialog));
    });
    await waitFor(() => expect(api.to('Parameters/SaveFrequencyPlan')).toHaveLength(1));
    expect(api.to('Parameters/SaveFrequencyPlan')[0]!.body).toEqual({
      operatorId: 3,
      nrArfcn: 628000,
      nrBandwidthMhz: 80,
      lteCarriers: { L800: 6400, L2100: 550 },
    });
    expect(await screen.findByText('Frequency plan of MEO saved.')).toBeInTheDocument();

    // Only NOS has no plan yet: 'Add plan' offers it alone.
    await waitFor(() => expect(buttonNamed('Add plan')).toBeEnabled());
    await act(async () => {
      fireEvent.click(buttonNamed('Add plan'));
    });
    const add = await dialogTitled('Add frequency plan');
    const operator = comboboxOf('Operator', add).closest('.ant-select') as HTMLElement;
    fireEvent.mouseDown(operator.querySelector('input') ?? operator);
    await waitFor(() =>
      expect(Array.from(document.querySelectorAll('.ant-select-item-option')).map((o) => o.textContent)).toEqual(expect.arrayContaining(['NOS'])),
    );
    expect(
      Array.from(document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')).map((o) => o.textContent),
    ).toEqual(['NOS']);
  });
});

describe('Parameter Planning of a cluster (issue 46)', () => {
  const CLUSTER_VIEW: RunView = {
    runId: 31,
    user: 'Eva Engineer',
    sites: 'LX0001,LX0002',
    files: '',
    runDate: '2026-05-02T08:00:00Z',
    message: 'Parameter planning of 2 sites (LX0001, LX0002) (AIR3227/78 on L800, L1800): 3 NR cells planned, 3 kept, … Problems: 1 warning.',
    summary: [
      { label: 'Sites', count: 2, tone: 'ok' },
      { label: 'NR cells', count: 3, tone: 'ok' },
      { label: 'NR cells kept', count: 3, tone: 'info' },
      { label: 'Warnings', count: 1, tone: 'warning' },
      { label: 'Errors', count: 0, tone: 'ok' },
    ],
    sheets: [fakeSheet('NR Cells', ['site', 'cell', 'nrStatus', 'pci'], 6, null, null), fakeSheet('Problems', ['verdict', 'rule', 'detail'], 1, 'WARNING')],
    hasFile: true,
  };
  const NR_ROWS: RunFindingRow[] = [
    { rowNo: 1, verdict: null, values: { site: 'LX0001', cell: 'LX0001_N78_1', nrStatus: 'Kept (inventory)', pci: 339 } },
    { rowNo: 2, verdict: null, values: { site: 'LX0002', cell: 'LX0002_N78_1', nrStatus: 'Planned', pci: 21 } },
  ];
  const PROBLEMS: RunFindingRow[] = [
    {
      rowNo: 1,
      verdict: 'WARNING',
      values: { verdict: 'WARNING', rule: 'NR PCI mod 3', detail: 'PCI 21 shares mod 3 (0) with facing first-tier cell(s) LX0009_N78_2' },
    },
  ];

  test('two sites and the replan box go in one call; the result lists the kept cells and the Problems; Discard plan asks, then frees the plan', async () => {
    signIn('CellwiseOS');
    let discarded = false;
    const api = serve({
      'Parameters/RunParameterPlanning': { ...RESULT, runId: 31, file: 'export-31' },
      'Parameters/GetParameterPlanningFindings': (params: Record<string, unknown>) =>
        fakeRunFindings(discarded ? { ...CLUSTER_VIEW, summary: [{ label: 'Discarded', count: 1, tone: 'info' }, ...CLUSTER_VIEW.summary] } : CLUSTER_VIEW, {
          'NR Cells': NR_ROWS,
          Problems: PROBLEMS,
        })(params),
      'Parameters/DiscardPlan': () => {
        discarded = true;
        return { runId: 31, freed: 3, message: 'Plan 31 discarded: 3 reserved NR cells freed.' };
      },
    });
    await renderPage();
    await chooseSite('LX0001 – Alvalade 1');
    await chooseSite('LX0002 – Alcântara 1');
    fireEvent.click(screen.getByLabelText('Replan existing NR cells'));
    await waitFor(() => expect(buttonNamed(/Run Parameter Planning/)).toBeEnabled());
    await act(async () => {
      fireEvent.click(buttonNamed(/Run Parameter Planning/));
    });
    await waitFor(() => expect(api.to('Parameters/RunParameterPlanning')).toHaveLength(1));
    expect(api.to('Parameters/RunParameterPlanning')[0]!.params).toEqual({
      siteId: 'LX0001,LX0002',
      antenna: 'AIR3227/78',
      lteBands: 'L800,L1800,L2100',
      userId: 7,
      replanExisting: true,
    });

    const card = await screen.findByTestId('run-result');
    expect(await within(card).findByText('Warnings: 1')).toBeInTheDocument();
    expect(await within(card).findByText('Kept (inventory)')).toBeInTheDocument();

    fireEvent.click(screen.getByTestId('discard-plan'));
    expect(await screen.findByText('Discard this plan?')).toBeInTheDocument();
    expect(api.to('Parameters/DiscardPlan')).toHaveLength(0);
    await act(async () => {
      fireEvent.click(buttonNamed('Discard plan', document.querySelector('.ant-popconfirm') as HTMLElement));
    });
    await waitFor(() => expect(api.to('Parameters/DiscardPlan')).toHaveLength(1));
    expect(api.to('Parameters/DiscardPlan')[0]!.body).toEqual({ parameterPlanningId: 31 });
    expect(await screen.findByText('Plan 31 discarded: 3 reserved NR cells freed.')).toBeInTheDocument();
    // The result is read again and says so.
    expect(await within(await screen.findByTestId('run-result')).findByText('Discarded: 1')).toBeInTheDocument();
  });

  test('a plan already discarded is said so, and nothing else changes', async () => {
    signIn('CellwiseOS');
    const api = serve({
      'Parameters/RunParameterPlanning': { ...RESULT, runId: 31 },
      'Parameters/GetParameterPlanningFindings': fakeRunFindings(CLUSTER_VIEW, { 'NR Cells': NR_ROWS, Problems: PROBLEMS }),
      'Parameters/DiscardPlan': () => Promise.reject(refusal(409, 'This plan was already discarded (02-05-2026 08:10:00 UTC by Eva Engineer).')),
    });
    await renderPage();
    await chooseSite('LX0001 – Alvalade 1');
    await waitFor(() => expect(buttonNamed(/Run Parameter Planning/)).toBeEnabled());
    await act(async () => {
      fireEvent.click(buttonNamed(/Run Parameter Planning/));
    });
    await screen.findByTestId('run-result');
    expect(api.to('Parameters/RunParameterPlanning')[0]!.params).not.toHaveProperty('replanExisting');
    fireEvent.click(screen.getByTestId('discard-plan'));
    await act(async () => {
      fireEvent.click(buttonNamed('Discard plan', (await screen.findByText('Discard this plan?')).closest('.ant-popover') as HTMLElement));
    });
    expect(await screen.findByText('This plan was already discarded (02-05-2026 08:10:00 UTC by Eva Engineer).')).toBeInTheDocument();
  });

  test('opened with ?site=LX0001 the site is chosen; a second choice joins it in ?site= and both are planned together; an unknown site is said', async () => {
    signIn('CellwiseOS');
    const api = serve({ 'Parameters/GetParameterPlanningFindings': RESULT_FINDINGS });
    await renderPage('/planning/parameterplanning?site=LX0001,PT0009');
    await waitFor(() => expect(selectedOf('Sites')).toEqual(['LX0001 – Alvalade 1']));
    expect(screen.getByTestId('site-param-notice')).toHaveTextContent(
      "Site PT0009 is not among the current operator's sites for this page, so it is not selected.",
    );
    await chooseSite('LX0002 – Alcântara 1');
    expect(addressNow()).toBe('/planning/parameterplanning?site=LX0001%2CLX0002');
    expect(screen.queryByTestId('site-param-notice')).toBeNull();
    await waitFor(() => expect(buttonNamed(/Run Parameter Planning/)).toBeEnabled());
    await act(async () => {
      fireEvent.click(buttonNamed(/Run Parameter Planning/));
    });
    await waitFor(() => expect(api.to('Parameters/RunParameterPlanning')).toHaveLength(1));
    expect(api.to('Parameters/RunParameterPlanning')[0]!.params).toMatchObject({ siteId: 'LX0001,LX0002' });
  });
});
