import { App, Button, Popconfirm } from 'antd';
import { useState } from 'react';
import type { AlarmRow, MessageResponse } from 'contracts';
import { api } from 'shared-auth';

// What the alarm list's rows draw on their own: the page loads the dialogs and the hints drawer
// (alarmDialogs.tsx, with their forms and validation) only when one is first opened.

/** POSTs and toasts the server's message; false when it failed (the API client has said why). */
export async function send(path: string, body: object, success: (message: string) => void): Promise<boolean> {
  try {
    const { data } = await api.post<MessageResponse>(path, body);
    success(data.message);
    return true;
  } catch {
    return false;
  }
}

/** Removes an acknowledgement after a confirmation (its note would be lost). */
export function UnacknowledgeButton({ alarm, onDone }: { alarm: AlarmRow; onDone: () => void }) {
  const { notification } = App.useApp();
  const [busy, setBusy] = useState(false);
  return (
    <Popconfirm
      title="Remove the acknowledgement of this alarm?"
      okText="Remove"
      onConfirm={async () => {
        setBusy(true);
        const done = await send('Monitoring/UnacknowledgeAlarm', { alarmId: alarm.id }, (title) => notification.success({ title }));
        setBusy(false);
        if (done) onDone();
      }}
    >
      <Button size="small" loading={busy}>
        Remove acknowledgement
      </Button>
    </Popconfirm>
  );
}
