import { DataTable, PageContainer, type DataColumn } from 'shared-ui';

interface OverallSiteSummaryRow {
  siteId: string;
  siteName: string;
  commissioningDate: string;
  currentStatus: string;
  overallSiteStatus: string;
  performanceStatus: string;
  alarmStatus: string;
  radioStatus: string;
  coreStatus: string;
}

const columns: Array<DataColumn<OverallSiteSummaryRow>> = [
  { key: 'siteId', title: 'Site Id' },
  { key: 'siteName', title: 'Site Name' },
  { key: 'commissioningDate', title: 'Commissioning Date', kind: 'date' },
  { key: 'currentStatus', title: 'Current Status' },
  { key: 'overallSiteStatus', title: 'Overall Site Status' },
  { key: 'performanceStatus', title: 'Performance Status' },
  { key: 'alarmStatus', title: 'Alarm Status' },
  { key: 'radioStatus', title: 'Radio Status' },
  { key: 'coreStatus', title: 'Core Status' },
];

export default function OverallSiteSummaryPage() {
  return (
    <PageContainer title="Overall Site Summary">
      <DataTable columns={columns} rows={[]} rowKey="siteId" />
    </PageContainer>
  );
}
