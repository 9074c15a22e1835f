import { App, Input, Typography, theme } from 'antd';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { AcknowledgeAlarmRequest, AcknowledgeAlarmsRequest, AlarmRow } from 'contracts';
import { Note, SaveDialog } from 'shared-ui';
import { send } from './alarmActions';

// The acknowledge dialogs draw their one note in shared-ui's SaveDialog frame with antd's TextArea and
// check it here, not with shared-ui's FormDialog: react-hook-form, yup and antd's Form weighed 39 KB
// (gzip) of the 78 KB that opening 'Acknowledge' loaded, over the page's budget (issue 48,
// docs/architecture.md). What a user sees is FormDialog's: a 'Note' label, 'is required' under it once
// touched, Cancel and Save.

/** shared-ui's REQUIRED, said here: importing it would bring forms.tsx with yup and react-hook-form (a test keeps the two equal). */
export const NOTE_REQUIRED = 'is required';

/** The contract's limit of AcknowledgeAlarmRequest.note and AcknowledgeAlarmsRequest.note. */
export const NOTE_MAX = 1000;

/** Why a note cannot be saved, in FormDialog's words (shared-ui requiredTexts), or null. */
export function noteProblem(note: string): string | null {
  if (note.trim() === '') return NOTE_REQUIRED;
  if (note.length > NOTE_MAX) return `must be at most ${NOTE_MAX} characters`;
  return null;
}

/** A dialog of one required note with Cancel and Save; Save (or submitting the form) runs `save` with the trimmed note. */
function NoteDialog({ title, intro, onClose, save }: { title: string; intro: ReactNode; onClose: () => void; save: (note: string) => Promise<void> }) {
  const { token } = theme.useToken();
  const formId = useId();
  const fieldId = `${formId}-note`;
  const [note, setNote] = useState('');
  const [touched, setTouched] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const problem = noteProblem(note);
  const shown = touched ? problem : null;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem !== null || submitting) return;
    setSubmitting(true);
    try {
      await save(note.trim());
    } finally {
      setSubmitting(false);
    }
  };
  return (
    <SaveDialog title={title} formId={formId} onClose={onClose} submitting={submitting}>
      <form id={formId} onSubmit={(event) => void submit(event)} noValidate>
        {intro}
        <div style={{ marginBottom: 16 }}>
          <label htmlFor={fieldId} style={{ display: 'inline-block', paddingBottom: token.paddingXS, color: token.colorTextHeading }}>
            Note
          </label>
          <Input.TextArea
            id={fieldId}
            rows={4}
            maxLength={NOTE_MAX}
            showCount
            autoFocus
            status={shown ? 'error' : undefined}
            aria-invalid={shown ? true : undefined}
            aria-describedby={shown ? `${fieldId}-help` : undefined}
            value={note}
            onChange={(event) => setNote(event.target.value)}
            onBlur={() => setTouched(true)}
          />
          {shown && (
            <Typography.Text id={`${fieldId}-help`} type="danger" role="alert" style={{ display: 'block', marginTop: 4 }}>
              {shown}
            </Typography.Text>
          )}
        </div>
      </form>
    </SaveDialog>
  );
}

/** 'Acknowledge': a required note, then AcknowledgeAlarm. Mounted only while open, so it starts empty. */
export function AcknowledgeDialog({ alarm, onClose, onDone }: { alarm: AlarmRow; onClose: () => void; onDone: () => void }) {
  const { notification } = App.useApp();
  return (
    <NoteDialog
      title="Acknowledge alarm"
      intro={
        <Note paragraph>
          {alarm.AlarmName} on {alarm.nodeName}
          {alarm.moName ? ` (${alarm.moName})` : ''}
        </Note>
      }
      onClose={onClose}
      save={async (note) => {
        const body: AcknowledgeAlarmRequest = { alarmId: alarm.id, note };
        if (await send('Monitoring/AcknowledgeAlarm', body, (title) => notification.success({ title }))) {
          onDone();
          onClose();
        }
      }}
    />
  );
}

/** 'Acknowledge selected': one note for every picked alarm, then AcknowledgeAlarms (all or none). */
export function AcknowledgeManyDialog({ alarmIds, onClose, onDone }: { alarmIds: number[]; onClose: () => void; onDone: () => void }) {
  const { notification } = App.useApp();
  return (
    <NoteDialog
      title={`Acknowledge ${alarmIds.length} ${alarmIds.length === 1 ? 'alarm' : 'alarms'}`}
      intro={<Note paragraph>One note for every selected alarm.</Note>}
      onClose={onClose}
      save={async (note) => {
        const body: AcknowledgeAlarmsRequest = { alarmIds, note };
        if (await send('Monitoring/AcknowledgeAlarms', body, (title) => notification.success({ title }))) {
          onDone();
          onClose();
        }
      }}
    />
  );
}
