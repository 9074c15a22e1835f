import { MedicineBoxOutlined } from '@ant-design/icons';
import { Button, Card, Flex } from 'antd';
import { PageContainer, SiteSelect } from 'shared-ui';

export default function HealthChecksPage() {
  return (
    <PageContainer title="Health Checks">
      <Card>
        <Flex gap={12} wrap>
          <SiteSelect />
          <Button type="primary" icon={<MedicineBoxOutlined />} disabled>
            Get Health Checks
          </Button>
        </Flex>
      </Card>
    </PageContainer>
  );
}
