import type { ConfigurationSummaryRow } from 'contracts';
import { DataTable, PageContainer, listFetcher, type DataColumn } from 'shared-ui';
import { NO_LOGS_YET, identityColumns, logFactColumns, statusColumn } from '../../monitoring/siteColumns';

const columns: Array<DataColumn<ConfigurationSummaryRow>> = [
  ...identityColumns<ConfigurationSummaryRow>(),
  statusColumn<ConfigurationSummaryRow>('radioStatus', 'Radio Status'),
  { key: 'radioComments', title: 'Radio Comments', wrap: true },
  statusColumn<ConfigurationSummaryRow>('coreStatus', 'Core Status'),
  { key: 'coreComments', title: 'Core Comments', wrap: true },
  ...logFactColumns<ConfigurationSummaryRow>(),
];

const fetchSummary = listFetcher<ConfigurationSummaryRow>('Monitoring/GetConfigurationManagementSummary');

export default function ConfigurationManagementPage() {
  return (
    <PageContainer title="Configuration Management">
      <DataTable
        tableKey="monitoring.configurationManagement"
        caption="Configuration Summary"
        columns={columns}
        fetchPage={fetchSummary}
        rowKey="nodeName"
        emptyText={NO_LOGS_YET}
      />
    </PageContainer>
  );
}
