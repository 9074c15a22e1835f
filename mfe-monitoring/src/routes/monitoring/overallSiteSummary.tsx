import { UploadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import type { OverallSiteSummaryRow } from 'contracts';
import { can, principalOf, useSession } from 'shared-auth';
import { DataTable, ImportDialog, InfoBanner, PageContainer, listFetcher, useApiGet, type DataColumn } from 'shared-ui';
import { NO_LOGS_YET, SiteReportLink, statusColumn } from '../../monitoring/siteColumns';

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

/** Job kind of the PM counter import (the API's `monitoring.performance`): its progress shows in the dialog. */
const PERFORMANCE_JOB_KIND = 'monitoring.performance';

export default function OverallSiteSummaryPage() {
  const isAdministrator = useSession((s) => can(principalOf(s), 'canAdminister'));
  const [importing, setImporting] = useState(false);
  // Bumped after a PM import: the table and the banner fetch again.
  const [version, setVersion] = useState(0);
  const pmDate = useApiGet<string | null>('Monitoring/GetPerformanceLastImport', null, version);
  return (
    <PageContainer
      title="Overall Site Summary"
      actions={
        isAdministrator ? (
          <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
            Import PM Counters
          </Button>
        ) : undefined
      }
    >
      {/* Performance Status reads the last PM import (3GPP TS 32.435 measCollecFile); without one it is N/A. */}
      <InfoBanner label="PM counters date" date={pmDate.data} loading={pmDate.loading} fallback="PM counters unavailable: Performance Status is N/A." />
      <DataTable
        tableKey="monitoring.overallSiteSummary"
        columns={columns}
        fetchPage={fetchSummary}
        rowKey="siteId"
        reloadKey={version}
        emptyText={NO_LOGS_YET}
      />
      {isAdministrator && (
        <ImportDialog
          title="Import PM Counters (.zip of measCollecFile XML)"
          open={importing}
          onClose={() => setImporting(false)}
          importPath="Monitoring/ImportPerformanceCounters"
          acceptedTypes={['.zip']}
          jobKind={PERFORMANCE_JOB_KIND}
          onImported={() => setVersion((v) => v + 1)}
        />
      )}
    </PageContainer>
  );
}
