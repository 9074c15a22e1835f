import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Empty } from 'antd';
import { PageContainer } from 'shared-ui';

export default function OperatorsPage() {
  return (
    <PageContainer
      title="Operators"
      actions={
        <Button type="primary" icon={<PlusOutlined />} disabled>
          Add
        </Button>
      }
    >
      <Card>
        <Empty description="No operators yet" />
      </Card>
    </PageContainer>
  );
}
