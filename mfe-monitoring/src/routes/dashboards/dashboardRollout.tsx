import { Card, Empty } from 'antd';
import { PageContainer } from 'shared-ui';

/** The rollout dashboard is record id 2 (specification §9). */
export const ROLLOUT_DASHBOARD_ID = 2;

export default function DashboardRolloutPage() {
  return (
    <PageContainer title="Dashboard Rollout">
      <Card>
        <Empty description="No dashboard configured" />
      </Card>
    </PageContainer>
  );
}
