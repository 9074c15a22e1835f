import { Card, Flex } from 'antd';
import { DataTable, FileDropZone, InfoBanner, PageContainer, SiteSelect } from 'shared-ui';
import { runHistoryColumns } from '../historyColumns';

export default function NbrRelationsValidationPage() {
  return (
    <PageContainer title="Nbr Relations Validation">
      <InfoBanner label="Neighbour relations date" date={null} fallback="Dump date unavailable!" />
      <Card>
        <Flex vertical gap={12}>
          <SiteSelect />
          <FileDropZone multiple acceptedTypes={['.xlsx']} />
        </Flex>
      </Card>
      <DataTable caption="Nbr Relations Validation History" columns={runHistoryColumns} rows={[]} rowKey="id" />
    </PageContainer>
  );
}
