import { App, Button, Flex, Modal, Select, Table } from 'antd';
import { useState } from 'react';
import type { DigestSchedule, MessageResponse, ReportRecipient } from 'contracts';
import { api } from 'shared-auth';
import { Note, useApiGet } from 'shared-ui';

/**
 * Reports to a list (issue 47): the site report mailed to several users of the operator, and, for
 * Administrators, each project's daily site-status digest. Loaded when first opened.
 */

const recipientOptions = (recipients: readonly ReportRecipient[]) => recipients.map((r) => ({ value: r.id, label: `${r.name} <${r.email}>` }));

/** 'Email Report': the caller is chosen to start with; each recipient gets the workbook with the site's status and alarm counts. */
export function ReportMailDialog({ siteId, userId, onClose }: { siteId: string; userId: number; onClose: () => void }) {
  const { notification } = App.useApp();
  const { data: recipients, loading } = useApiGet<ReportRecipient[]>('Monitoring/GetReportRecipients', []);
  const [chosen, setChosen] = useState<number[] | null>(null);
  const [sending, setSending] = useState(false);
  const picked = chosen ?? (recipients.some((r) => r.id === userId) ? [userId] : []);
  const send = async () => {
    setSending(true);
    try {
      const { data } = await api.post<MessageResponse>('Monitoring/SendSiteReport', { siteId, userIds: picked });
      notification.success({ title: data.message });
      onClose();
    } catch {
      // The API client has shown why (599 'No logs parsed yet …' as a warning, 429 with the wait).
    } finally {
      setSending(false);
    }
  };
  return (
    <Modal
      open
      title={`Email the report of ${siteId}`}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>
          Cancel
        </Button>,
        <Button key="send" type="primary" disabled={picked.length === 0} loading={sending} onClick={() => void send()}>
          Send
        </Button>,
      ]}
    >
      <Flex vertical gap={8}>
        <label htmlFor="report-recipients">Recipients</label>
        <Select
          id="report-recipients"
          mode="multiple"
          loading={loading}
          value={picked}
          onChange={setChosen}
          options={recipientOptions(recipients)}
          optionFilterProp="label"
          placeholder="Users of the operator"
          style={{ width: '100%' }}
        />
        <Note>Each recipient gets the workbook, with the site's status and alarm counts in the mail.</Note>
      </Flex>
    </Modal>
  );
}

const HOURS = Array.from({ length: 24 }, (_, h) => ({ value: h, label: `${String(h).padStart(2, '0')}:00 UTC` }));

/** The daily site-status digest of each project of the operator (Administrators): its hour and its list. */
export function DigestDialog({ onClose }: { onClose: () => void }) {
  const { notification } = App.useApp();
  const [version, setVersion] = useState(0);
  const { data: schedules, loading } = useApiGet<DigestSchedule[]>('Monitoring/GetDigestSchedules', [], version);
  const { data: recipients } = useApiGet<ReportRecipient[]>('Monitoring/GetReportRecipients', []);
  const [edits, setEdits] = useState<Record<number, { hour: number; userIds: number[] }>>({});
  const call = async (work: () => Promise<{ data: MessageResponse }>) => {
    try {
      const { data } = await work();
      notification.success({ title: data.message });
      setVersion((v) => v + 1);
    } catch {
      // The API client has shown why.
    }
  };
  const editOf = (s: DigestSchedule) => edits[s.projectId] ?? { hour: s.hour ?? 7, userIds: s.userIds };
  const edit = (s: DigestSchedule, change: Partial<{ hour: number; userIds: number[] }>) =>
    setEdits((prev) => ({ ...prev, [s.projectId]: { ...editOf(s), ...change } }));
  return (
    <Modal open title="Daily site-status digest" onCancel={onClose} footer={<Button onClick={onClose}>Close</Button>} width={820} destroyOnHidden>
      <Note paragraph>
        Every day at its hour, each listed user gets the operator's site statuses and alarm counts. Each digest is a job on the job dashboard.
      </Note>
      <Table<DigestSchedule>
        size="small"
        rowKey="projectId"
        loading={loading}
        dataSource={schedules}
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={[
          { key: 'project', title: 'Project', dataIndex: 'projectName' },
          {
            key: 'hour',
            title: 'Hour',
            render: (_, s) => (
              <Select
                aria-label={`Hour of ${s.projectName}'s digest`}
                value={editOf(s).hour}
                options={HOURS}
                onChange={(hour) => edit(s, { hour })}
                style={{ width: 130 }}
              />
            ),
          },
          {
            key: 'recipients',
            title: 'Recipients',
            render: (_, s) => (
              <Select
                aria-label={`Recipients of ${s.projectName}'s digest`}
                mode="multiple"
                value={editOf(s).userIds}
                options={recipientOptions(recipients)}
                optionFilterProp="label"
                onChange={(userIds) => edit(s, { userIds })}
                style={{ minWidth: 240 }}
              />
            ),
          },
          {
            key: 'actions',
            title: 'Actions',
            render: (_, s) => (
              <Flex gap={4} wrap>
                <Button
                  size="small"
                  type="primary"
                  disabled={editOf(s).userIds.length === 0}
                  onClick={() => void call(() => api.put('Monitoring/SaveDigestSchedule', { projectId: s.projectId, ...editOf(s) }))}
                >
                  {s.hour === null ? 'Schedule' : 'Save'}
                </Button>
                {s.hour !== null ? (
                  <>
                    <Button size="small" onClick={() => void call(() => api.post('Monitoring/SendDigestNow', { projectId: s.projectId }))}>
                      Send now
                    </Button>
                    <Button
                      size="small"
                      danger
                      onClick={() => void call(() => api.delete('Monitoring/DeleteDigestSchedule', { data: { projectId: s.projectId } }))}
                    >
                      Remove
                    </Button>
                  </>
                ) : null}
              </Flex>
            ),
          },
        ]}
      />
    </Modal>
  );
}
