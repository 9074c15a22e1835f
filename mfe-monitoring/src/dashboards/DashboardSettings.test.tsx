import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { BiServer, DashboardRecord } from 'contracts';
import { api, type ApiResponse } from 'shared-auth';
import { ConsoleProviders } from 'shared-ui';
import { fakeApi, refusal, signIn } from '../testing/monitoringKit';
import { DashboardSettingsDrawer, NO_SERVER_LABEL } from './DashboardSettings';

const SERVERS: BiServer[] = [
  { id: 'powerbi', type: 'PowerBI', name: 'Power BI', origin: 'https://app.powerbi.com' },
  { id: 'tableau', type: 'Tableau', name: 'Tableau', origin: 'https://tableau.example.com' },
];
const RECORD: DashboardRecord = {
  id: 2,
  type: 'PowerBI',
  name: 'Rollout report',
  url: 'https://app.powerbi.com/reportEmbed?reportId=r&groupId=g',
  serverId: 'powerbi',
};

let puts: Array<{ path: string; body: unknown }>;
let answerPut: (body: DashboardRecord) => Promise<unknown>;

function open(record: DashboardRecord = RECORD) {
  const onClose = jest.fn();
  const onSaved = jest.fn();
  render(
    <ConsoleProviders>
      <DashboardSettingsDrawer record={record} onClose={onClose} onSaved={onSaved} />
    </ConsoleProviders>,
  );
  return { onClose, onSaved, drawer: () => screen.getByRole('dialog') };
}

/** The shown value of the select labelled `label`. */
function selected(label: string): string {
  const select = screen.getByLabelText(label).closest('.ant-select') as HTMLElement;
  return select.querySelector('.ant-select-content')?.getAttribute('title') ?? select.textContent ?? '';
}

async function choose(label: string, option: string) {
  fireEvent.mouseDown(screen.getByLabelText(label));
  const found = await waitFor(() => {
    const item = Array.from(document.querySelectorAll<HTMLElement>('.ant-select-item-option')).find((o) => o.textContent === option);
    if (!item) throw new Error(`no option ${option}`);
    return item;
  });
  await act(async () => {
    fireEvent.click(found);
  });
}

function optionsOf(label: string): string[] {
  fireEvent.mouseDown(screen.getByLabelText(label));
  const list = document.getElementById(`${screen.getByLabelText(label).id}_list`)?.closest('.ant-select-dropdown') ?? document;
  return Array.from(list.querySelectorAll<HTMLElement>('.ant-select-item-option')).map((o) => o.textContent ?? '');
}

const save = async () => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  });
};

beforeEach(() => {
  signIn('Administrator', 1);
  fakeApi({ 'Dashboard/GetServers': { data: SERVERS } });
  puts = [];
  answerPut = async (body) => ({ data: body });
  jest.spyOn(api, 'put').mockImplementation(async (path: string, body?: unknown) => {
    puts.push({ path, body });
    return { data: await answerPut(body as DashboardRecord) } as ApiResponse;
  });
});

afterEach(() => {
  jest.restoreAllMocks();
});

test('starts from the record; the BI servers offered are those of its type, and none', async () => {
  open();
  expect(screen.getByLabelText('Name')).toHaveValue('Rollout report');
  expect(screen.getByLabelText('URL')).toHaveValue(RECORD.url);
  expect(selected('Type')).toBe('Power BI');
  await waitFor(() => expect(selected('BI server')).toBe('Power BI (https://app.powerbi.com)'));
  await waitFor(() => expect(optionsOf('BI server')).toEqual([NO_SERVER_LABEL, 'Power BI (https://app.powerbi.com)']));
});

test('saves the record with Dashboard/Update and says so with the shared toast', async () => {
  const { onSaved } = open();
  await waitFor(() => expect(selected('BI server')).toBe('Power BI (https://app.powerbi.com)'));
  fireEvent.change(screen.getByLabelText('Name'), { target: { value: '  Rollout 2026 ' } });
  await save();
  await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
  expect(puts).toEqual([{ path: 'Dashboard/Update', body: { ...RECORD, name: 'Rollout 2026' } }]);
  expect(onSaved).toHaveBeenCalledWith({ ...RECORD, name: 'Rollout 2026' });
  expect(await screen.findByText('Dashboard updated!')).toBeInTheDocument();
});

test('switching to Tableau clears the Power BI server; choosing the Tableau server saves it', async () => {
  const { onSaved } = open();
  await waitFor(() => expect(selected('BI server')).toBe('Power BI (https://app.powerbi.com)'));
  await choose('Type', 'Tableau');
  await waitFor(() => expect(selected('BI server')).toBe(NO_SERVER_LABEL));
  await choose('BI server', 'Tableau (https://tableau.example.com)');
  fireEvent.change(screen.getByLabelText('URL'), { target: { value: 'https://tableau.example.com/views/Rollout/Overview' } });
  await save();
  await waitFor(() => expect(onSaved).toHaveBeenCalled());
  expect(puts[0]!.body).toEqual({
    id: 2,
    type: 'Tableau',
    name: 'Rollout report',
    url: 'https://tableau.example.com/views/Rollout/Overview',
    serverId: 'tableau',
  });
});

test('"None — console charts" saves no server, and needs no URL', async () => {
  const { onSaved } = open({ ...RECORD, url: '', serverId: null });
  await waitFor(() => expect(selected('BI server')).toBe(NO_SERVER_LABEL));
  await save();
  await waitFor(() => expect(onSaved).toHaveBeenCalled());
  expect(puts[0]!.body).toEqual({ ...RECORD, url: '', serverId: null });
});

test('a BI server needs an https URL, and a name is required: nothing is sent until they are right', async () => {
  open({ ...RECORD, url: '' });
  await waitFor(() => expect(selected('BI server')).toBe('Power BI (https://app.powerbi.com)'));
  fireEvent.change(screen.getByLabelText('Name'), { target: { value: ' ' } });
  await save();
  await waitFor(() => expect(screen.getAllByText('is required')).toHaveLength(2));
  fireEvent.change(screen.getByLabelText('URL'), { target: { value: 'http://app.powerbi.com/reportEmbed?reportId=r&groupId=g' } });
  await waitFor(() => expect(screen.getByText('must be an https:// address')).toBeInTheDocument());
  expect(puts).toEqual([]);
});

test("the server's refusal is said on the form, which stays open with the values", async () => {
  answerPut = async () => {
    throw refusal(400, "The dashboard URL must be on https://app.powerbi.com, the origin of BI server 'Power BI'.");
  };
  const { onSaved, onClose } = open();
  await waitFor(() => expect(selected('BI server')).toBe('Power BI (https://app.powerbi.com)'));
  await save();
  const alert = await within(screen.getByRole('dialog')).findByRole('alert');
  expect(alert).toHaveTextContent("The dashboard URL must be on https://app.powerbi.com, the origin of BI server 'Power BI'.");
  expect(onSaved).not.toHaveBeenCalled();
  expect(onClose).not.toHaveBeenCalled();
  expect(screen.getByLabelText('Name')).toHaveValue('Rollout report');
  expect(screen.queryByText('Dashboard updated!')).toBeNull();
});

test('Cancel closes without saving', async () => {
  const { onClose } = open();
  await waitFor(() => expect(selected('BI server')).toBe('Power BI (https://app.powerbi.com)'));
  fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
  expect(onClose).toHaveBeenCalledTimes(1);
  expect(puts).toEqual([]);
});
