import { Form } from 'antd';
import { useId, type FormEvent, type ReactNode } from 'react';
import { SaveDialog } from './SaveDialog';

export interface FormDialogProps {
  title: string;
  /** The form's submit handler (`form.handleSubmit(...)`): it runs only when the form is valid. */
  onSubmit: (event: FormEvent) => Promise<void>;
  onClose: () => void;
  submitting: boolean;
  children: ReactNode;
}

/**
 * A form in a dialog with Cancel and Save. Render it only while open: it then starts from a fresh form
 * each time (specification §4). Save submits the form, so Enter in a field saves too.
 */
export function FormDialog({ title, onSubmit, onClose, submitting, children }: FormDialogProps) {
  const formId = useId();
  return (
    <SaveDialog title={title} formId={formId} onClose={onClose} submitting={submitting}>
      <Form id={formId} layout="vertical" component="form" onSubmitCapture={(e) => void onSubmit(e)}>
        {children}
      </Form>
    </SaveDialog>
  );
}
