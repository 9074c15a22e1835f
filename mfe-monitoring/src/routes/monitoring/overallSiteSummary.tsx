import type { OverallSiteSummaryRow } from 'api/contracts';
import { DataTable, PageContainer, listFetcher, type DataColumn } from 'shared-ui';
import { NO_LOGS_YET, SiteReportLink, statusColumn } from './siteColumns';

const columns: Array<DataColumn<OverallSiteSummaryRow>> = [
  { key: 'siteId', title: 'Site Id', render: (row) => <SiteReportLink siteId={row.siteId} /> },
  { key: 'siteName', title: 'Site Name' },
  { key: 'commissioningDate', title: 'Commissioning Date', kind: 'date' },
  { key: 'currentStatus', title: 'Current Status' },
  statusColumn<OverallSiteSummaryRow>('overallSiteStatus', 'Overall Site Status'),
  statusColumn<OverallSiteSummaryRow>('performanceStatus', 'Performance Status'),
  statusColumn<OverallSiteSummaryRow>('alarmStatus', 'Alarm Status'),
  statusColumn<OverallSiteSummaryRow>('radioStatus', 'Radio Status'),
  statusColumn<OverallSiteSummaryRow>('coreStatus', 'Core Status'),
];

const fetchSummary = listFetcher<OverallSiteSummaryRow>('Monitoring/GetOverallSiteSummary');

export default function OverallSiteSummaryPage() {
  return (
    <PageContainer title="Overall Site Summary">
      <DataTable columns={columns} fetchPage={fetchSummary} rowKey="siteId" emptyText={NO_LOGS_YET} />
    </PageContainer>
  );
}
