import { Button, Modal } from 'antd';
import type { ReactNode } from 'react';

export interface SaveDialogProps {
  title: string;
  /** The id of the form inside: Save submits it, so Enter in a field saves too. */
  formId: string;
  onClose: () => void;
  submitting: boolean;
  /** The form, with `id={formId}`. */
  children: ReactNode;
}

/**
 * The frame of every dialog that saves a form: the title, the form, Cancel and Save. Kept apart from
 * forms.tsx so a dialog with a plain form (the alarm acknowledge dialogs) takes the same frame without
 * loading react-hook-form, yup and antd's Form (issue 48: page weights).
 */
export function SaveDialog({ title, formId, onClose, submitting, children }: SaveDialogProps) {
  return (
    <Modal
      open
      title={title}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>
          Cancel
        </Button>,
        <Button key="save" type="primary" htmlType="submit" form={formId} loading={submitting}>
          Save
        </Button>,
      ]}
    >
      {children}
    </Modal>
  );
}
