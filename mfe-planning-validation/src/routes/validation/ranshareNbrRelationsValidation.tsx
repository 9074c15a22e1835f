import { PlayCircleOutlined } from '@ant-design/icons';
import { Button, Card, Flex } from 'antd';
import { PageContainer, SiteSelect } from 'shared-ui';

export default function RanShareNbrRelationsValidationPage() {
  return (
    <PageContainer title="RanShare Nbr Relations Validation">
      <Card>
        <Flex gap={12} wrap>
          <SiteSelect />
          <Button type="primary" icon={<PlayCircleOutlined />} disabled>
            RanShare Nbr Relations Validation
          </Button>
        </Flex>
      </Card>
    </PageContainer>
  );
}
