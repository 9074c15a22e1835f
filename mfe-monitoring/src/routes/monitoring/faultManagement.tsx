import { DataTable, PageContainer, type DataColumn } from 'shared-ui';
import { identityColumns, type SiteIdentity } from './siteColumns';

interface FaultSummaryRow extends SiteIdentity {
  alarmStatus: string;
  alarmCount: number;
  alarmComments: string;
}

interface AlarmRow {
  siteId: string;
  siteName: string;
  nodeName: string;
  tech: string;
  alarmDatetime: string;
  severity: string;
  AlarmName: string;
  moName: string;
  info: string;
}

const summaryColumns: Array<DataColumn<FaultSummaryRow>> = [
  ...identityColumns<FaultSummaryRow>(),
  { key: 'alarmStatus', title: 'Alarm Status' },
  { key: 'alarmCount', title: 'Alarm Count', kind: 'number' },
  { key: 'alarmComments', title: 'Alarm Comments' },
];

const alarmColumns: Array<DataColumn<AlarmRow>> = [
  { key: 'siteId', title: 'Site Id' },
  { key: 'siteName', title: 'Site Name' },
  { key: 'nodeName', title: 'Node Name' },
  { key: 'tech', title: 'Tech' },
  { key: 'alarmDatetime', title: 'Alarm Datetime', kind: 'date' },
  { key: 'severity', title: 'Severity' },
  { key: 'AlarmName', title: 'Alarm Name' },
  { key: 'moName', title: 'MO Name' },
  { key: 'info', title: 'Info' },
];

export default function FaultManagementPage() {
  return (
    <PageContainer title="Fault Management">
      <DataTable caption="Fault Summary" columns={summaryColumns} rows={[]} rowKey="nodeName" />
      <DataTable caption="Alarm List" columns={alarmColumns} rows={[]} rowKey="moName" />
    </PageContainer>
  );
}
