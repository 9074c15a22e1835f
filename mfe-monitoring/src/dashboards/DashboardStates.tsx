import { ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Spin } from 'antd';
import { Note } from 'shared-ui';

// What the rollout dashboard page and its BI frame (BiDashboard.tsx, loaded apart) both draw.

/** A dashboard that neither loads nor fails within this time is said to have failed. */
export const EMBED_LOAD_TIMEOUT_MS = 30_000;

export const LOAD_FAILED = 'The dashboard could not be loaded';

export function Loading({ text }: { text: string }) {
  return (
    <Flex vertical align="center" justify="center" gap={12} style={{ minHeight: 240 }} role="status">
      <Spin />
      <Note>{text}</Note>
    </Flex>
  );
}

export function Failure({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      title={LOAD_FAILED}
      description={message}
      data-testid="dashboard-failure"
      action={
        <Button icon={<ReloadOutlined />} onClick={onRetry}>
          Retry
        </Button>
      }
    />
  );
}
