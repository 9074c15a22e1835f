import { DataTable, PageContainer, type DataColumn } from 'shared-ui';
import { identityColumns, type SiteIdentity } from './siteColumns';

interface ConfigurationSummaryRow extends SiteIdentity {
  radioStatus: string;
  radioComments: string;
  coreStatus: string;
  coreComments: string;
}

const columns: Array<DataColumn<ConfigurationSummaryRow>> = [
  ...identityColumns<ConfigurationSummaryRow>(),
  { key: 'radioStatus', title: 'Radio Status' },
  { key: 'radioComments', title: 'Radio Comments' },
  { key: 'coreStatus', title: 'Core Status' },
  { key: 'coreComments', title: 'Core Comments' },
];

export default function ConfigurationManagementPage() {
  return (
    <PageContainer title="Configuration Management">
      <DataTable caption="Configuration Summary" columns={columns} rows={[]} rowKey="nodeName" />
    </PageContainer>
  );
}
