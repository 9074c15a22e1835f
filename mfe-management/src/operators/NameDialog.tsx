import { FormDialog, TextField, required, useConsoleForm } from 'shared-ui';
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
    <FormDialog title={title} onSubmit={save} onClose={onClose} submitting={form.formState.isSubmitting}>
      <TextField control={form.control} name="name" label="Name" autoFocus />
    </FormDialog>
  );
}
