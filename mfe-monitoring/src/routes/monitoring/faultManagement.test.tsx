import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AlarmHint, AlarmRow, FaultSummaryRow } from 'contracts';
import FaultManagementPage from './faultManagement';
import { REQUIRED } from 'shared-ui';
import { NOTE_REQUIRED, noteProblem } from '../../monitoring/acknowledgeDialogs';
import { alarmIdOf } from '../../monitoring/alarmLink';
import { alarmNotFound } from '../../monitoring/linkedAlarm';
import { buttonNamed, fakeApi, locationNow, openDialog, refusal, renderPage, rowsOf, signIn, tableCaptioned } from '../../testing/monitoringKit';

const summary = (nodeName: string, alarmStatus: string, alarmCount: number, alarmComments: string): FaultSummaryRow => ({
  siteId: 'LX0001',
  siteName: 'Lisboa Centro',
  nodeName,
  tech: '4G',
  commissioningDate: null,
  currentStatus: 'On Air',
  alarmStatus,
  alarmCount,
  alarmComments,
  logsDate: '2026-05-01T10:00:00Z',
  remarks: '',
});

const alarm = (id: number, severity: string, more: Partial<AlarmRow> = {}): AlarmRow => ({
  id,
  siteId: 'LX0001',
  siteName: 'Lisboa Centro',
  nodeName: 'ERBS_LX0001_A',
  tech: '4G',
  alarmDatetime: '2026-05-01T09:00:00Z',
  severity,
  AlarmName: `Alarm ${id}`,
  moName: `EUtranCellFDD=LX0001_${id}`,
  info: '',
  acknowledged: 'No',
  ackNote: null,
  ackBy: null,
  ackAt: null,
  hint: null,
  source: `logs.zip › ERBS_LX0001_A.log:${id}`,
  stale: 'No',
  ...more,
});

const ALARMS = [
  alarm(1, 'Critical', { hint: 'Check the RRU power supply.' }),
  alarm(2, 'Major', { acknowledged: 'Yes', ackNote: 'Site visit on Friday', ackBy: 'Eva Engineer', ackAt: '2026-05-01T11:00:00Z' }),
  alarm(3, 'Minor'),
  alarm(4, 'Warning'),
];

function serve(hints: AlarmHint[] = []) {
  return fakeApi({
    'Monitoring/GetFaultManagementSummary': {
      rows: [summary('ERBS_LX0001_A', 'NOK', 4, 'Alarm 1, Alarm 2'), summary('ERBS_LX0002_A', 'OK', 1, 'Alarm 9'), summary('ERBS_LX0003_A', 'N/A', 0, '')],
      total: 3,
    },
    'Monitoring/GetFaultManagement': (params: Record<string, unknown>) =>
      params.filters ? { rows: ALARMS.filter((a) => a.nodeName === 'ERBS_LX0002_A'), total: 0 } : { rows: ALARMS, total: ALARMS.length },
    // The API's Monitoring/GetAlarm: 404 for an id the current operator has not.
    'Monitoring/GetAlarm': (params: Record<string, unknown>) => {
      const found = ALARMS.find((a) => a.id === params.id);
      if (!found) throw refusal(404, 'Alarm not found.');
      return found;
    },
    'Monitoring/AcknowledgeAlarm': { message: 'Alarm acknowledged.' },
    'Monitoring/UnacknowledgeAlarm': { message: 'Acknowledgement removed.' },
    'Monitoring/GetAlarmHints': hints,
    'Monitoring/SaveAlarmHint': { message: 'Hint saved.' },
    'Monitoring/DeleteAlarmHint': { message: 'Hint deleted.' },
  });
}

/** The element of that aria-label within scope (plain DOM: role queries are slow on wide antd tables). */
function labelled(label: string, scope: ParentNode): HTMLElement {
  const found = scope.querySelector<HTMLElement>(`[aria-label="${label}"]`);
  if (!found) throw new Error(`nothing labelled ${label}`);
  return found;
}

const alarmRow = (id: number) =>
  Array.from(tableCaptioned('Alarm List').querySelectorAll<HTMLElement>('tr.ant-table-row')).find((r) => r.textContent?.includes(`Alarm ${id}`))!;

async function pageLoaded() {
  await renderPage(FaultManagementPage, '/monitoring/faultManagement');
  await waitFor(() => expect(rowsOf('Alarm List')).toHaveLength(4));
  await waitFor(() => expect(rowsOf('Fault Summary')).toHaveLength(3));
}

afterEach(() => jest.restoreAllMocks());

describe('Fault Management', () => {
  test('summary: alarm status as a green OK / red NOK tag (N/A neutral), count and comments; alarm list: severities coloured', async () => {
    signIn();
    const api = serve();
    await pageLoaded();
    expect(api.to('Monitoring/GetFaultManagementSummary')[0]!.params).toEqual({ page: 1, size: 10 });
    expect(api.to('Monitoring/GetFaultManagement')[0]!.params).toEqual({ page: 1, size: 10 });

    const statusTags = Array.from(tableCaptioned('Fault Summary').querySelectorAll('tr.ant-table-row')).map((r) => r.querySelector('.ant-tag')!);
    expect(statusTags.map((t) => t.textContent)).toEqual(['NOK', 'OK', 'N/A']);
    expect(statusTags[0]!.className).toMatch(/red/);
    expect(statusTags[1]!.className).toMatch(/green/);
    expect(statusTags[2]!.className).not.toMatch(/red|green/);
    expect(rowsOf('Fault Summary')[0]!.slice(6, 9)).toEqual(['NOK', '4', 'Alarm 1, Alarm 2']);

    const severities = [1, 2, 3, 4].map((id) => alarmRow(id).querySelector('.ant-tag')!);
    expect(severities.map((t) => t.textContent)).toEqual(['Critical', 'Major', 'Minor', 'Warning']);
    expect(severities.map((t) => /red|orange|gold|blue/.exec(t.className)?.[0])).toEqual(['red', 'orange', 'gold', 'blue']);
    // Not an Administrator: no hint catalogue.
    expect(() => buttonNamed('Alarm Hints')).toThrow();
  });

  test('the hint is one click away; acknowledged rows say by whom and why; each row links to its tracker row and work orders', async () => {
    signIn();
    serve();
    await pageLoaded();
    fireEvent.click(labelled('Hint for Alarm 1', alarmRow(1)));
    expect(await screen.findByText('Check the RRU power supply.')).toBeInTheDocument();
    expect(alarmRow(3).querySelector('button[aria-label^="Hint for"]')).toBeNull();

    const acknowledged = alarmRow(2);
    expect(acknowledged.textContent).toContain('Site visit on Friday');
    expect(acknowledged.textContent).toContain('Eva Engineer');
    expect(acknowledged.textContent).toContain('01-05-2026 11:00:00');
    expect(within(acknowledged).getByText('Tracker').closest('a')).toHaveAttribute(
      'href',
      `/tracking/tracker?filters=${encodeURIComponent('{"localId":"LX0001"}')}`,
    );
    expect(within(acknowledged).getByText('Work orders').closest('a')).toHaveAttribute(
      'href',
      `/tracking/workorderstatus?filters=${encodeURIComponent('{"siteId":"LX0001"}')}`,
    );
  });

  test('Acknowledge asks for a note (required), sends it and reloads the list; Remove acknowledgement asks first', async () => {
    signIn();
    const api = serve();
    await pageLoaded();
    fireEvent.click(buttonNamed('Acknowledge', alarmRow(1)));
    const dialog = await openDialog();
    expect(within(dialog).getByText('Acknowledge alarm')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(buttonNamed('Save', dialog));
    });
    expect(await within(dialog).findByText('is required')).toBeInTheDocument();
    expect(api.to('Monitoring/AcknowledgeAlarm')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Note'), { target: { value: '  Power outage, EDP informed  ' } });
    await act(async () => {
      fireEvent.click(buttonNamed('Save', dialog));
    });
    await waitFor(() => expect(api.to('Monitoring/AcknowledgeAlarm')).toHaveLength(1));
    expect(api.to('Monitoring/AcknowledgeAlarm')[0]!.body).toEqual({ alarmId: 1, note: 'Power outage, EDP informed' });
    expect(await screen.findByText('Alarm acknowledged.')).toBeInTheDocument();
    await waitFor(() => expect(api.to('Monitoring/GetFaultManagement')).toHaveLength(2));

    fireEvent.click(buttonNamed('Remove acknowledgement', alarmRow(2)));
    const confirm = await waitFor(() => {
      const pop = document.querySelector<HTMLElement>('.ant-popconfirm');
      if (!pop) throw new Error('no confirmation yet');
      return pop;
    });
    await act(async () => {
      fireEvent.click(buttonNamed('Remove', confirm));
    });
    await waitFor(() => expect(api.to('Monitoring/UnacknowledgeAlarm')).toHaveLength(1));
    expect(api.to('Monitoring/UnacknowledgeAlarm')[0]!.body).toEqual({ alarmId: 2 });
    await waitFor(() => expect(api.to('Monitoring/GetFaultManagement')).toHaveLength(3));
  });

  test("'Show alarms' of a summary row, or a click on the row, filters the alarm list by its node", async () => {
    signIn();
    const api = serve();
    await pageLoaded();
    const second = Array.from(tableCaptioned('Fault Summary').querySelectorAll<HTMLElement>('tr.ant-table-row'))[1]!;
    await act(async () => {
      fireEvent.click(labelled('Show the alarms of ERBS_LX0002_A', second));
    });
    await waitFor(() => expect(api.to('Monitoring/GetFaultManagement').at(-1)!.params).toEqual({ page: 1, size: 10, filters: '{"nodeName":"ERBS_LX0002_A"}' }));
    expect(screen.getByText('Node: ERBS_LX0002_A')).toBeInTheDocument();

    // A click anywhere on a summary row does the same.
    const third = Array.from(tableCaptioned('Fault Summary').querySelectorAll<HTMLElement>('tr.ant-table-row'))[2]!;
    await act(async () => {
      fireEvent.click(third.querySelectorAll('td')[3]!);
    });
    await waitFor(() => expect(api.to('Monitoring/GetFaultManagement').at(-1)!.params).toMatchObject({ filters: '{"nodeName":"ERBS_LX0003_A"}' }));
  });

  test("a link with ?filters= (the rollout dashboard's alarm bars) opens the alarm list filtered from its first request; the summary stays whole", async () => {
    signIn();
    const api = serve();
    await renderPage(FaultManagementPage, `/monitoring/faultManagement?${new URLSearchParams({ filters: JSON.stringify({ severity: 'Major' }) }).toString()}`);
    await waitFor(() => expect(api.to('Monitoring/GetFaultManagement')).toHaveLength(1));
    expect(api.to('Monitoring/GetFaultManagement')[0]!.params).toEqual({ page: 1, size: 10, filters: '{"severity":"Major"}' });
    expect(api.to('Monitoring/GetFaultManagementSummary')[0]!.params).toEqual({ page: 1, size: 10 });
    // The filter shows on its column, so the user sees why the list is short and can reset it.
    expect(labelled('Filter Severity', tableCaptioned('Alarm List')).getAttribute('aria-pressed')).toBe('true');
  });

  test('Administrators keep the alarm-hint catalogue: list, add, delete', async () => {
    signIn('Administrator');
    const api = serve([{ alarmName: 'Heartbeat Failure', hint: 'Check the transport link.', updatedBy: 'Ana Admin', updatedAt: '2026-04-01T08:00:00Z' }]);
    await pageLoaded();
    fireEvent.click(buttonNamed('Alarm Hints'));
    const drawer = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('.ant-drawer');
      if (!found?.textContent?.includes('Heartbeat Failure')) throw new Error('no hints yet');
      return found;
    });
    expect(drawer.textContent).toContain('Check the transport link.');

    fireEvent.click(buttonNamed('Add hint', drawer));
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('Alarm Name'), { target: { value: 'Link Failure' } });
    fireEvent.change(within(dialog).getByLabelText('Hint'), { target: { value: 'Check the fibre.' } });
    await act(async () => {
      fireEvent.click(buttonNamed('Save', dialog));
    });
    await waitFor(() => expect(api.to('Monitoring/SaveAlarmHint')).toHaveLength(1));
    expect(api.to('Monitoring/SaveAlarmHint')[0]!.body).toEqual({ alarmName: 'Link Failure', hint: 'Check the fibre.' });
    await waitFor(() => expect(api.to('Monitoring/GetAlarmHints')).toHaveLength(2));
    // The alarm list carries the hints, so it fetches again.
    await waitFor(() => expect(api.to('Monitoring/GetFaultManagement')).toHaveLength(2));

    fireEvent.click(labelled('Delete hint of Heartbeat Failure', drawer));
    const confirm = await waitFor(() => {
      const pop = document.querySelector<HTMLElement>('.ant-popconfirm');
      if (!pop) throw new Error('no confirmation yet');
      return pop;
    });
    await act(async () => {
      fireEvent.click(buttonNamed('Delete', confirm));
    });
    await waitFor(() => expect(api.to('Monitoring/DeleteAlarmHint')).toHaveLength(1));
    expect(api.to('Monitoring/DeleteAlarmHint')[0]!.body).toEqual({ alarmName: 'Heartbeat Failure' });
  });

  test("a node whose log stopped inside its alarm table: 'Incomplete log' as a neutral tag (not OK green), its kept alarms tagged Stale", async () => {
    signIn();
    fakeApi({
      'Monitoring/GetFaultManagementSummary': {
        rows: [summary('ERBS_LX0001_A', 'Incomplete log', 2, 'Incomplete log: LX0001.log line 14: alarm table without its >>> Total footer')],
        total: 1,
      },
      'Monitoring/GetFaultManagement': { rows: [alarm(1, 'Major', { stale: 'Yes' }), alarm(2, 'Minor')], total: 2 },
      'Monitoring/GetAlarmHints': [],
    });
    await renderPage(FaultManagementPage, '/monitoring/faultManagement');
    await waitFor(() => expect(rowsOf('Alarm List')).toHaveLength(2));
    await waitFor(() => expect(rowsOf('Fault Summary')).toHaveLength(1));
    const status = tableCaptioned('Fault Summary').querySelector('tr.ant-table-row .ant-tag')!;
    expect(status.textContent).toBe('Incomplete log');
    expect(status.className).not.toMatch(/green|red/);
    expect(Array.from(alarmRow(1).querySelectorAll('.ant-tag')).map((t) => t.textContent)).toEqual(['Major', 'Stale', 'No']);
    expect(Array.from(alarmRow(2).querySelectorAll('.ant-tag')).map((t) => t.textContent)).toEqual(['Minor', 'No']);
  });

  test('a link with ?alarm=<id> (issue 47) shows that alarm above the list, acknowledges it from there, and closes to the plain page', async () => {
    signIn();
    const api = serve();
    await renderPage(FaultManagementPage, '/monitoring/faultManagement?alarm=3');
    const linked = await screen.findByTestId('linked-alarm');
    await waitFor(() => expect(linked).toHaveTextContent('Alarm 3 on ERBS_LX0001_A'));
    expect(linked).toHaveTextContent('Severity Minor');
    expect(linked).toHaveTextContent('MO EUtranCellFDD=LX0001_3');
    expect(linked).toHaveTextContent('Not acknowledged');
    expect(api.to('Monitoring/GetAlarm')[0]!.params).toEqual({ id: 3 });
    // The link says nothing about the list: it shows every alarm as before.
    await waitFor(() => expect(rowsOf('Alarm List')).toHaveLength(4));

    fireEvent.click(buttonNamed('Acknowledge', linked));
    const dialog = await openDialog();
    expect(within(dialog).getByText(/Alarm 3 on ERBS_LX0001_A/)).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText('Note'), { target: { value: 'Seen from the link' } });
    await act(async () => {
      fireEvent.click(buttonNamed('Save', dialog));
    });
    await waitFor(() => expect(api.to('Monitoring/AcknowledgeAlarm')).toHaveLength(1));
    expect(api.to('Monitoring/AcknowledgeAlarm')[0]!.body).toEqual({ alarmId: 3, note: 'Seen from the link' });
    // Read again with the list after the acknowledgement.
    await waitFor(() => expect(api.to('Monitoring/GetAlarm')).toHaveLength(2));

    fireEvent.click(buttonNamed('Close', screen.getByTestId('linked-alarm')));
    await waitFor(() => expect(screen.queryByTestId('linked-alarm')).toBeNull());
    expect(locationNow()).toBe('/monitoring/faultManagement');
  });

  test("an unknown or another operator's alarm id says so where the alarm would be (the API answers 404 for both); a malformed id is no link", async () => {
    signIn();
    const api = serve();
    await renderPage(FaultManagementPage, '/monitoring/faultManagement?alarm=999');
    expect(await screen.findByText(alarmNotFound(999))).toBeInTheDocument();
    expect(api.to('Monitoring/GetAlarm')[0]!.config).toMatchObject({ skipErrorHandling: true });
    expect(alarmIdOf('12')).toBe(12);
    for (const bad of [null, '', '0', '-1', '1.5', 'x', '99999999999', '2147483648']) expect(alarmIdOf(bad)).toBeNull();
  });

  test('the acknowledge note is checked as the forms check it: required (same words as shared-ui), at most 1000 characters', () => {
    expect(NOTE_REQUIRED).toBe(REQUIRED);
    expect(noteProblem('   ')).toBe(REQUIRED);
    expect(noteProblem('x'.repeat(1001))).toBe('must be at most 1000 characters');
    expect(noteProblem('ok')).toBeNull();
  });
});
