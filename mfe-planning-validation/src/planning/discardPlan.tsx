import { DeleteOutlined } from '@ant-design/icons';
import { App, Button, Popconfirm } from 'antd';
import { useState } from 'react';
import type { DiscardPlanResponse } from 'contracts';
import { api, errorMessage } from 'shared-auth';

/**
 * 'Discard plan' (issue 46): frees the reservations of the run shown, after a confirmation, so the next
 * plans may take its PCIs; the API refuses a run already discarded (409) and says so.
 */
export function DiscardPlanButton({ runId, onDiscarded }: { runId: number; onDiscarded: () => void }) {
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const discard = async () => {
    setBusy(true);
    try {
      const { data } = await api.post<DiscardPlanResponse>('Parameters/DiscardPlan', { parameterPlanningId: runId }, { skipErrorHandling: true });
      void message.success(data.message);
      onDiscarded();
    } catch (error) {
      void message.warning(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Popconfirm
      title="Discard this plan?"
      description="Its reserved NR cells are freed: the next plans may take their PCIs and PRACH roots. The workbook stays."
      okText="Discard plan"
      okButtonProps={{ danger: true }}
      cancelText="Keep it"
      onConfirm={() => void discard()}
    >
      <Button danger icon={<DeleteOutlined />} loading={busy} data-testid="discard-plan">
        Discard plan
      </Button>
    </Popconfirm>
  );
}
