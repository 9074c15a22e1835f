import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Drawer, Flex, Popconfirm } from 'antd';
import { send } from './alarmActions';
import { useState } from 'react';
import type { AlarmHint, AlarmNameRequest, SaveAlarmHintRequest } from 'contracts';
import { DataTable, FormDialog, TextAreaField, TextField, requiredTexts, useApiGet, useConsoleForm, type DataColumn } from 'shared-ui';

/** The limits of the contract's SaveAlarmHintRequest. The acknowledge dialogs are in acknowledgeDialogs.tsx. */
const hintSchema = requiredTexts({ alarmName: 200, hint: 2000 });

/** A hint with a column of its own for the row's buttons. */
type HintRow = AlarmHint & { actions?: undefined };

function HintDialog({ hint, onClose, onSaved }: { hint: AlarmHint | null; onClose: () => void; onSaved: () => void }) {
  const { notification } = App.useApp();
  const form = useConsoleForm(hintSchema, { alarmName: hint?.alarmName ?? '', hint: hint?.hint ?? '' });
  const save = form.handleSubmit(async (values) => {
    const body: SaveAlarmHintRequest = { alarmName: values.alarmName.trim(), hint: values.hint.trim() };
    if (await send('Monitoring/SaveAlarmHint', body, (title) => notification.success({ title }))) {
      onSaved();
      onClose();
    }
  });
  return (
    <FormDialog title={hint ? 'Edit hint' : 'Add hint'} onSubmit={save} onClose={onClose} submitting={form.formState.isSubmitting}>
      <TextField control={form.control} name="alarmName" label="Alarm Name" disabled={hint !== null} autoFocus={hint === null} />
      <TextAreaField control={form.control} name="hint" label="Hint" maxLength={2000} rows={6} autoFocus={hint !== null} />
    </FormDialog>
  );
}

/**
 * The catalogue of remediation hints by alarm name (Administrators): add, edit, delete. `onChanged`
 * lets the alarm list fetch again, since its rows carry the hints.
 */
export function AlarmHintsDrawer({ open, onClose, onChanged }: { open: boolean; onClose: () => void; onChanged: () => void }) {
  const { notification } = App.useApp();
  const [version, setVersion] = useState(0);
  const [editing, setEditing] = useState<AlarmHint | null | 'new'>(null);
  const hints = useApiGet<AlarmHint[]>(open ? 'Monitoring/GetAlarmHints' : null, [], version);
  const changed = () => {
    setVersion((v) => v + 1);
    onChanged();
  };

  const remove = async (alarmName: string) => {
    const body: AlarmNameRequest = { alarmName };
    if (await send('Monitoring/DeleteAlarmHint', body, (title) => notification.success({ title }))) changed();
  };

  const columns: Array<DataColumn<HintRow>> = [
    { key: 'alarmName', title: 'Alarm Name', wrap: true },
    { key: 'hint', title: 'Hint', wrap: true },
    { key: 'updatedBy', title: 'Updated By' },
    { key: 'updatedAt', title: 'Updated At', kind: 'date' },
    {
      key: 'actions',
      title: 'Actions',
      filter: false,
      render: (row) => (
        <Flex gap={4} wrap>
          <Button size="small" icon={<EditOutlined />} aria-label={`Edit hint of ${row.alarmName}`} onClick={() => setEditing(row)}>
            Edit
          </Button>
          <Popconfirm title={`Delete the hint of ${row.alarmName}?`} okText="Delete" okButtonProps={{ danger: true }} onConfirm={() => remove(row.alarmName)}>
            <Button size="small" danger icon={<DeleteOutlined />} aria-label={`Delete hint of ${row.alarmName}`}>
              Delete
            </Button>
          </Popconfirm>
        </Flex>
      ),
    },
  ];

  return (
    <Drawer
      title="Alarm Hints"
      open={open}
      onClose={onClose}
      size={960}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          Add hint
        </Button>
      }
    >
      <DataTable
        tableKey="monitoring.alarmHints"
        columns={columns}
        rows={hints.data}
        loading={hints.loading}
        rowKey="alarmName"
        emptyText="No hints yet: add one for an alarm name, and the alarm list shows it."
      />
      {editing !== null && <HintDialog hint={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={changed} />}
    </Drawer>
  );
}
