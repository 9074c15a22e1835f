import { Card, Tabs } from 'antd';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router-dom';
import { PageContainer } from 'shared-ui';

export const OPERATOR_TABS = ['overview', 'projects', 'users'] as const;
const LABELS: Record<(typeof OPERATOR_TABS)[number], string> = { overview: 'Overview', projects: 'Projects', users: 'Users' };

/** The operator id travels in router state, never in the path (specification §2). */
export default function OperatorDetailsPage() {
  const { tab } = useParams();
  const navigate = useNavigate();
  const state = useLocation().state as { operatorId?: number } | null;
  if (!tab) return <Navigate to="/management/operators" replace />;
  if (!(OPERATOR_TABS as readonly string[]).includes(tab)) return <Navigate to="/errors/error-404" replace />;
  if (!state?.operatorId) return null;
  return (
    <PageContainer title="Operator details">
      <Card>
        <Tabs
          activeKey={tab}
          onChange={(key) => navigate(`/management/operators/details/${key}`, { state })}
          items={OPERATOR_TABS.map((key) => ({ key, label: LABELS[key] }))}
        />
      </Card>
    </PageContainer>
  );
}
