import { BulbOutlined, CloseOutlined, InfoCircleOutlined } from '@ant-design/icons';
import { Button, Flex, Popover, Tag, Tooltip, Typography } from 'antd';
import { Suspense, lazy, useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import type { AlarmRow, FaultSummaryRow } from 'contracts';
import { can, principalOf, useAlarmsVersion, useSession } from 'shared-auth';
import { DataTable, PageContainer, StatusTag, filtersFromSearch, filtersSearch, formatDate, listFetcher, type DataColumn } from 'shared-ui';
import { UnacknowledgeButton } from '../../monitoring/alarmActions';
import { AlarmChanges, AlarmCounters, SelectAlarm, type CounterFilter } from '../../monitoring/alarmConsole';
import { alarmIdOf } from '../../monitoring/alarmLink';

// The acknowledge dialogs and the hints drawer load when first opened or pointed at, not with the page;
// apart, so acknowledging does not load the drawer's table and forms (issue 48).
const loadAcknowledgeDialogs = () => import('../../monitoring/acknowledgeDialogs');
const loadAlarmDialogs = () => import('../../monitoring/alarmDialogs');
const AcknowledgeDialog = lazy(() => loadAcknowledgeDialogs().then((m) => ({ default: m.AcknowledgeDialog })));
const AcknowledgeManyDialog = lazy(() => loadAcknowledgeDialogs().then((m) => ({ default: m.AcknowledgeManyDialog })));
const AlarmHintsDrawer = lazy(() => loadAlarmDialogs().then((m) => ({ default: m.AlarmHintsDrawer })));
// The alarm a link names (?alarm=<id>), only when there is one.
const LinkedAlarm = lazy(() => import('../../monitoring/linkedAlarm'));
import { NO_LOGS_YET, SiteReportLink, identityColumns, logFactColumns } from '../../monitoring/siteColumns';

const NO_ALARMS = 'No alarms: none is active, or no logs were parsed yet (upload MoBatch logs on Upload Logs).';

/** Severity colours of the alarm list: Critical red, Major orange, Minor gold, Warning blue. */
const SEVERITY_COLOURS: Record<string, string> = { Critical: 'red', Major: 'orange', Minor: 'gold', Warning: 'blue' };

export function SeverityTag({ severity }: { severity: string }) {
  return (
    <Tag color={SEVERITY_COLOURS[severity]} style={{ marginInlineEnd: 0 }}>
      {severity}
    </Tag>
  );
}

/**
 * The severity, and for an alarm kept from an older log (the node's newest log stopped inside its alarm
 * table) a 'Stale' tag saying so: the node may no longer raise it, or raise more.
 */
function Severity({ row }: { row: AlarmRow }) {
  if (row.stale !== 'Yes') return <SeverityTag severity={row.severity} />;
  return (
    <Flex gap={4} align="center">
      <SeverityTag severity={row.severity} />
      <Tooltip title="Kept from an older log: the newest log of this node stopped inside its alarm table.">
        {/* Gold, not 'warning': the status colour's text (#faad14) is 1.9:1 on its background (axe color-contrast). */}
        <Tag color="gold" style={{ marginInlineEnd: 0 }}>
          Stale
        </Tag>
      </Tooltip>
    </Flex>
  );
}

/** The alarm name, with its remediation hint one click (or key press) away. */
function AlarmName({ row }: { row: AlarmRow }) {
  if (!row.hint) return <>{row.AlarmName}</>;
  return (
    <Flex gap={4} align="center">
      <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{row.AlarmName}</span>
      <Popover
        trigger="click"
        title={`Hint: ${row.AlarmName}`}
        content={<Typography.Paragraph style={{ maxWidth: 360, margin: 0, whiteSpace: 'pre-wrap' }}>{row.hint}</Typography.Paragraph>}
      >
        <Button type="text" size="small" icon={<InfoCircleOutlined />} aria-label={`Hint for ${row.AlarmName}`} />
      </Popover>
    </Flex>
  );
}

function Acknowledged({ row }: { row: AlarmRow }) {
  if (row.acknowledged !== 'Yes') return <Tag style={{ marginInlineEnd: 0 }}>No</Tag>;
  const who = [row.ackBy, row.ackAt ? formatDate(row.ackAt) : null].filter(Boolean).join(', ');
  return (
    <Tooltip title={[row.ackNote, who].filter(Boolean).join(' — ') || undefined}>
      <Tag color="green" style={{ marginInlineEnd: 0 }}>
        Yes
      </Tag>
    </Tooltip>
  );
}

/** Summary and alarm rows, plus a column of their own for the buttons and links. */
type SummaryRow = FaultSummaryRow & { actions?: undefined };
type AlarmListRow = AlarmRow & { actions?: undefined; select?: undefined };

const fetchSummary = listFetcher<SummaryRow>('Monitoring/GetFaultManagementSummary');
const fetchAlarms = listFetcher<AlarmListRow>('Monitoring/GetFaultManagement');

export default function FaultManagementPage() {
  const isAdministrator = useSession((s) => can(principalOf(s), 'canAdminister'));
  // Bumped after an acknowledgement or a hint change: both lists fetch again. The hub's AlarmsChanged
  // (a parse stored, an acknowledgement anywhere in the operator) does the same, with no reload (issue 47).
  const [ownVersion, setVersion] = useState(0);
  const version = `${ownVersion}:${useAlarmsVersion()}`;
  // A counter clicked: the alarm list starts again filtered by its severity, or by acknowledged.
  const [counter, setCounter] = useState<CounterFilter | null>(null);
  const [changesShown, setChangesShown] = useState(false);
  // Alarms picked for one acknowledgement with one note.
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [acknowledgingMany, setAcknowledgingMany] = useState(false);
  const pick = (id: number, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const [acknowledging, setAcknowledging] = useState<AlarmRow | null>(null);
  const [hintsOpen, setHintsOpen] = useState(false);
  // The drawer stays mounted once opened, so it closes with its motion and keeps its table.
  const [hintsOpened, setHintsOpened] = useState(false);
  // A node picked in the summary: the alarm list starts again filtered by it.
  const [node, setNode] = useState<string | null>(null);
  const alarmList = useRef<HTMLDivElement>(null);
  // A link's ?filters= (the rollout dashboard's alarm bars: { severity }) opens the alarm list filtered.
  const { search } = useLocation();
  // ?alarm=<id> (a notification, a copied link) shows that alarm above the list, if the operator has it (issue 47).
  const [searchParams, setSearchParams] = useSearchParams();
  const linkedAlarm = alarmIdOf(searchParams.get('alarm'));
  const closeLinkedAlarm = () =>
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.delete('alarm');
        return next;
      },
      { replace: true },
    );
  const refresh = () => setVersion((v) => v + 1);

  const showAlarmsOf = (nodeName: string) => {
    setCounter(null);
    setNode(nodeName);
    alarmList.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
  };

  const summaryColumns: Array<DataColumn<SummaryRow>> = [
    ...identityColumns<SummaryRow>(),
    { key: 'alarmStatus', title: 'Alarm Status', render: (row) => <StatusTag value={row.alarmStatus} /> },
    { key: 'alarmCount', title: 'Alarm Count', kind: 'number' },
    { key: 'alarmComments', title: 'Alarm Comments', wrap: true },
    ...logFactColumns<SummaryRow>(),
    {
      key: 'actions',
      title: 'Alarms',
      filter: false,
      sortable: false,
      render: (row) =>
        row.alarmCount > 0 ? (
          <Button
            size="small"
            type="link"
            onClick={(event) => {
              // The row's own click does the same.
              event.stopPropagation();
              showAlarmsOf(row.nodeName);
            }}
            aria-label={`Show the alarms of ${row.nodeName}`}
          >
            {/* The words the name starts with, so a user who says what they see reaches it (axe label-content-name-mismatch). */}
            Show the alarms
          </Button>
        ) : null,
    },
  ];

  const alarmColumns: Array<DataColumn<AlarmListRow>> = [
    {
      key: 'select',
      title: 'Select',
      filter: false,
      sortable: false,
      width: 64,
      render: (row) =>
        row.acknowledged === 'Yes' ? null : (
          <SelectAlarm id={row.id} label={`${row.AlarmName} on ${row.nodeName}`} selected={selected.has(row.id)} onChange={pick} />
        ),
    },
    { key: 'siteId', title: 'Site Id', render: (row) => <SiteReportLink siteId={row.siteId} /> },
    { key: 'siteName', title: 'Site Name' },
    { key: 'nodeName', title: 'Node Name' },
    { key: 'tech', title: 'Tech' },
    { key: 'alarmDatetime', title: 'Alarm Datetime', kind: 'date' },
    { key: 'severity', title: 'Severity', render: (row) => <Severity row={row} /> },
    { key: 'AlarmName', title: 'Alarm Name', render: (row) => <AlarmName row={row} /> },
    { key: 'moName', title: 'MO Name' },
    { key: 'info', title: 'Info' },
    { key: 'acknowledged', title: 'Acknowledged', render: (row) => <Acknowledged row={row} /> },
    { key: 'ackNote', title: 'Ack Note', wrap: true },
    { key: 'ackBy', title: 'Ack By' },
    { key: 'ackAt', title: 'Ack At', kind: 'date' },
    { key: 'source', title: 'Source' },
    {
      key: 'actions',
      title: 'Actions',
      filter: false,
      sortable: false,
      wrap: true,
      render: (row) => (
        <Flex vertical gap={4} align="start">
          {row.acknowledged === 'Yes' ? (
            <UnacknowledgeButton alarm={row} onDone={refresh} />
          ) : (
            <Button
              size="small"
              onClick={() => setAcknowledging(row)}
              onPointerEnter={() => void loadAcknowledgeDialogs()}
              onFocus={() => void loadAcknowledgeDialogs()}
            >
              Acknowledge
            </Button>
          )}
          {row.siteId ? (
            <Flex gap={12}>
              <Link to={`/tracking/tracker${filtersSearch({ localId: row.siteId })}`} aria-label={`Tracker row of ${row.siteId}`}>
                Tracker
              </Link>
              <Link to={`/tracking/workorderstatus${filtersSearch({ siteId: row.siteId })}`} aria-label={`Work orders of ${row.siteId}`}>
                Work orders
              </Link>
            </Flex>
          ) : null}
        </Flex>
      ),
    },
  ];

  return (
    <PageContainer
      title="Fault Management"
      actions={
        isAdministrator ? (
          <Button
            icon={<BulbOutlined />}
            onClick={() => {
              setHintsOpened(true);
              setHintsOpen(true);
            }}
            onPointerEnter={() => void loadAlarmDialogs()}
            onFocus={() => void loadAlarmDialogs()}
          >
            Alarm Hints
          </Button>
        ) : undefined
      }
    >
      {linkedAlarm !== null && (
        <Suspense fallback={null}>
          <LinkedAlarm
            id={linkedAlarm}
            version={version}
            onAcknowledge={(alarm) => {
              void loadAcknowledgeDialogs();
              setAcknowledging(alarm);
            }}
            onClose={closeLinkedAlarm}
          />
        </Suspense>
      )}
      <DataTable
        tableKey="monitoring.faultManagement.summary"
        caption="Fault Summary"
        columns={summaryColumns}
        fetchPage={fetchSummary}
        rowKey="nodeName"
        reloadKey={version}
        emptyText={NO_LOGS_YET}
        onRowClick={(row) => showAlarmsOf(row.nodeName)}
      />
      <div ref={alarmList} style={{ scrollMarginTop: 16 }}>
        <Flex vertical gap={8}>
          <AlarmCounters
            version={version}
            active={counter}
            onFilter={(filter) => {
              setNode(null);
              setCounter(filter);
            }}
            onShowChanges={() => setChangesShown((shown) => !shown)}
          />
          {changesShown ? <AlarmChanges version={version} /> : null}
          {node !== null && (
            <Flex>
              <Tag closable closeIcon={<CloseOutlined aria-label="Show every node's alarms" />} onClose={() => setNode(null)}>
                Node: {node}
              </Tag>
            </Flex>
          )}
          <Flex gap={8} align="center" wrap>
            <Button
              disabled={selected.size === 0}
              onClick={() => setAcknowledgingMany(true)}
              onPointerEnter={() => void loadAcknowledgeDialogs()}
              onFocus={() => void loadAcknowledgeDialogs()}
            >
              Acknowledge selected ({selected.size})
            </Button>
            {selected.size > 0 ? (
              <Button type="link" size="small" onClick={() => setSelected(new Set())}>
                Clear selection
              </Button>
            ) : null}
          </Flex>
          <DataTable
            // A new node, counter (or a new link) starts a new table, filtered by it from its first request.
            key={`${node ?? ''}|${counter ? `${counter.field}=${counter.value}` : ''}|${search}`}
            tableKey="monitoring.faultManagement.alarms"
            caption="Alarm List"
            columns={alarmColumns}
            fetchPage={fetchAlarms}
            rowKey="id"
            reloadKey={version}
            initialFilters={node !== null ? { nodeName: node } : counter !== null ? { [counter.field]: counter.value } : filtersFromSearch(search)}
            emptyText={NO_ALARMS}
          />
        </Flex>
      </div>
      <Suspense fallback={null}>
        {acknowledging && <AcknowledgeDialog alarm={acknowledging} onClose={() => setAcknowledging(null)} onDone={refresh} />}
        {acknowledgingMany && (
          <AcknowledgeManyDialog
            alarmIds={[...selected]}
            onClose={() => setAcknowledgingMany(false)}
            onDone={() => {
              setSelected(new Set());
              refresh();
            }}
          />
        )}
        {isAdministrator && hintsOpened && <AlarmHintsDrawer open={hintsOpen} onClose={() => setHintsOpen(false)} onChanged={refresh} />}
      </Suspense>
    </PageContainer>
  );
}
