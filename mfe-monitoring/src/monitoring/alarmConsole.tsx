import { Button, Checkbox, Flex, Spin, Tag } from 'antd';
import type { AlarmChange, AlarmCounts } from 'contracts';
import { DataTable, Note, formatDate, useApiGet, type DataColumn } from 'shared-ui';

/**
 * The live alarm console's parts (issue 47): the counters above the alarm list, the alarms new and
 * cleared since each node's previous upload, and the check box that picks alarms for one
 * acknowledgement. The page passes `version`, which grows on the hub's AlarmsChanged, so everything
 * here reads again when a parse lands anywhere in the operator.
 */

export type CounterFilter = { field: 'severity'; value: 'Critical' | 'Major' | 'Minor' | 'Warning' } | { field: 'acknowledged'; value: 'Yes' };

const COUNTERS: ReadonlyArray<{ label: string; filter: CounterFilter; count: (c: AlarmCounts) => number; colour: string }> = [
  { label: 'Critical', filter: { field: 'severity', value: 'Critical' }, count: (c) => c.Critical, colour: '#cf1322' },
  { label: 'Major', filter: { field: 'severity', value: 'Major' }, count: (c) => c.Major, colour: '#ad4e00' },
  { label: 'Minor', filter: { field: 'severity', value: 'Minor' }, count: (c) => c.Minor, colour: '#7c5e00' },
  { label: 'Warning', filter: { field: 'severity', value: 'Warning' }, count: (c) => c.Warning, colour: '#0958d9' },
  { label: 'Acknowledged', filter: { field: 'acknowledged', value: 'Yes' }, count: (c) => c.acknowledged, colour: '#237804' },
];

const same = (a: CounterFilter | null, b: CounterFilter) => a !== null && a.field === b.field && a.value === b.value;

/** Severity and acknowledged counters; a click filters the alarm list by it, a second click clears it. */
export function AlarmCounters({
  version,
  active,
  onFilter,
  onShowChanges,
}: {
  version: string | number;
  active: CounterFilter | null;
  onFilter: (filter: CounterFilter | null) => void;
  onShowChanges?: () => void;
}) {
  // Null until the first answer: a '0 Critical' drawn before it would say the network is quiet when it
  // is not known yet. Later answers (the hub's AlarmsChanged) replace the shown counts in place.
  const { data, failed } = useApiGet<AlarmCounts | null>('Monitoring/GetAlarmCounts', null, version);
  if (data === null) {
    return (
      <Flex gap={8} align="center" role="group" aria-label="Alarm counters" aria-busy={!failed}>
        {failed ? <Note>The alarm counts could not be read.</Note> : <Spin size="small" aria-label="Loading the alarm counts" />}
      </Flex>
    );
  }
  return (
    <Flex gap={8} wrap align="center" role="group" aria-label="Alarm counters">
      {COUNTERS.map((counter) => {
        const pressed = same(active, counter.filter);
        return (
          <Button
            key={counter.label}
            aria-pressed={pressed}
            type={pressed ? 'primary' : 'default'}
            onClick={() => onFilter(pressed ? null : counter.filter)}
            data-counter={counter.label}
          >
            <span style={{ color: pressed ? undefined : counter.colour, fontWeight: 600 }}>{counter.count(data)}</span> {counter.label}
          </Button>
        );
      })}
      <Note>
        Since the last upload: {data.newSinceLastLog} new, {data.clearedSinceLastLog} cleared
      </Note>
      {onShowChanges && data.newSinceLastLog + data.clearedSinceLastLog > 0 ? (
        <Button type="link" size="small" onClick={onShowChanges}>
          Show changes
        </Button>
      ) : null}
    </Flex>
  );
}

type ChangeRow = AlarmChange & { key: string };

const CHANGE_COLUMNS: Array<DataColumn<ChangeRow>> = [
  { key: 'nodeName', title: 'Node Name' },
  {
    key: 'change',
    title: 'Change',
    render: (row) => <Tag color={row.change === 'new' ? 'red' : 'green'}>{row.change === 'new' ? 'New since last upload' : 'Cleared since last upload'}</Tag>,
  },
  { key: 'severity', title: 'Severity' },
  { key: 'AlarmName', title: 'Alarm Name' },
  { key: 'moName', title: 'MO Name', wrap: true },
  { key: 'alarmDatetime', title: 'Alarm Datetime', kind: 'date' },
  { key: 'previousLogsDate', title: 'Previous Logs', kind: 'date' },
  { key: 'logsDate', title: 'Latest Logs', kind: 'date' },
];

/** Per node, the difference between its two latest logs; `siteId` narrows it to one site (the report's Alarms tab). */
export function AlarmChanges({ version, siteId }: { version: string | number; siteId?: string }) {
  const path = siteId === undefined ? 'Monitoring/GetAlarmChanges' : `Monitoring/GetAlarmChanges?siteId=${encodeURIComponent(siteId)}`;
  const { data, loading } = useApiGet<AlarmChange[]>(path, [], version);
  const rows = data.map((c) => ({ ...c, key: `${c.nodeName}|${c.change}|${c.moName}|${c.AlarmName}` }));
  const latest = rows.find((r) => r.logsDate)?.logsDate;
  return (
    <DataTable<ChangeRow>
      caption={siteId === undefined ? 'Since the last upload' : `Since the last upload${latest ? ` (${formatDate(latest)})` : ''}`}
      columns={CHANGE_COLUMNS}
      rows={rows}
      loading={loading}
      rowKey="key"
      emptyText="No alarm is new or cleared: each node's latest log shows what the one before it showed, or it is the node's first."
    />
  );
}

/** The check box that picks an alarm for 'Acknowledge selected'. */
export function SelectAlarm({ id, label, selected, onChange }: { id: number; label: string; selected: boolean; onChange: (id: number, on: boolean) => void }) {
  return (
    <Checkbox
      checked={selected}
      aria-label={`Select ${label}`}
      onClick={(event) => event.stopPropagation()}
      onChange={(event) => onChange(id, event.target.checked)}
    />
  );
}
