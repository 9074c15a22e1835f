import { PlayCircleOutlined } from '@ant-design/icons';
import { Button, Card, Flex } from 'antd';
import { DataTable, InfoBanner, PageContainer, SiteSelect } from 'shared-ui';
import { cpichHistoryColumns } from '../historyColumns';

export default function CpichValidationPage() {
  return (
    <PageContainer title="Cpich Validation">
      <InfoBanner label="UTRAN cells date" date={null} fallback="Dump date unavailable!" />
      <Card>
        <Flex gap={12} wrap>
          <SiteSelect multiple />
          <Button type="primary" icon={<PlayCircleOutlined />} disabled>
            Run Validation
          </Button>
        </Flex>
      </Card>
      <DataTable caption="Cpich Validation History" columns={cpichHistoryColumns} rows={[]} rowKey="id" />
    </PageContainer>
  );
}
