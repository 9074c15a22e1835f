import { Button, Form, Modal } from 'antd';
import { TextField, required, useConsoleForm } from 'shared-ui';
import * as yup from 'yup';

const nameSchema = yup.object({ name: required() });

export interface NameDialogProps {
  title: string;
  /** Saves the name; resolves true when the dialog may close (failures were shown by the API client). */
  onSave: (name: string) => Promise<boolean>;
  onClose: () => void;
}

/** Add operator and Add project: one required Name (specification §5). Mounted only while open, so it starts empty. */
export function NameDialog({ title, onSave, onClose }: NameDialogProps) {
  const form = useConsoleForm(nameSchema, { name: '' });
  const save = form.handleSubmit(async ({ name }) => {
    if (await onSave(name.trim())) onClose();
  });
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
        <Button key="save" type="primary" htmlType="submit" form="name-form" loading={form.formState.isSubmitting}>
          Save
        </Button>,
      ]}
    >
      <Form id="name-form" layout="vertical" component="form" onSubmitCapture={(e) => void save(e)}>
        <TextField control={form.control} name="name" label="Name" autoFocus />
      </Form>
    </Modal>
  );
}
