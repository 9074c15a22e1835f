import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import * as yup from 'yup';
import { PasswordField, REQUIRED, TextField, required, useConsoleForm } from './forms';

const schema = yup.object({ name: required(), secret: required(), confirm: required().oneOf([yup.ref('secret')], 'must match') });

function Harness({ onSave }: { onSave: (values: unknown) => void }) {
  const form = useConsoleForm(schema, { name: '', secret: '', confirm: '' });
  return (
    <form onSubmit={form.handleSubmit(onSave)}>
      <TextField control={form.control} name="name" label="Name" />
      <PasswordField control={form.control} name="secret" label="Secret" />
      <PasswordField control={form.control} name="confirm" label="Confirm" />
      <button type="submit" disabled={!form.formState.isValid}>
        Save
      </button>
    </form>
  );
}

describe('console forms', () => {
  test("a field's first error shows only once it is touched", async () => {
    render(<Harness onSave={jest.fn()} />);
    expect(screen.queryByText(REQUIRED)).not.toBeInTheDocument();
    fireEvent.focus(screen.getByLabelText('Name'));
    fireEvent.blur(screen.getByLabelText('Name'));
    await waitFor(() => expect(screen.getAllByText(REQUIRED)).toHaveLength(1));
  });

  test('Save does nothing until the form is valid', async () => {
    const onSave = jest.fn();
    render(<Harness onSave={onSave} />);
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Ana' } });
    fireEvent.change(screen.getByLabelText('Secret'), { target: { value: 'a-long-secret' } });
    fireEvent.change(screen.getByLabelText('Confirm'), { target: { value: 'different' } });
    await waitFor(() => expect(save).toBeDisabled());
    fireEvent.change(screen.getByLabelText('Confirm'), { target: { value: 'a-long-secret' } });
    await waitFor(() => expect(save).toBeEnabled());
    fireEvent.click(save);
    await waitFor(() => expect(onSave).toHaveBeenCalledWith({ name: 'Ana', secret: 'a-long-secret', confirm: 'a-long-secret' }, expect.anything()));
  });
});
