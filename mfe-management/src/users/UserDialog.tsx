import { useEffect } from 'react';
import { useWatch } from 'react-hook-form';
import type { OperatorOption, ProjectOption, RoleOption, UserDetails, UserForm } from 'contracts';
import { api, useSession } from 'shared-auth';
import { FormDialog, REQUIRED, SelectField, TextField, required, useApiGet, useConsoleForm, useToasts } from 'shared-ui';
import * as yup from 'yup';

const userSchema = yup.object({
  firstname: required(),
  lastname: required(),
  email: required().email('is not a valid email address'),
  roleId: yup.number().typeError(REQUIRED).required(REQUIRED),
  operatorIds: yup.array(yup.number().required()).default([]),
  projectIds: yup.array(yup.number().required()).default([]),
});

const EMPTY = { firstname: '', lastname: '', email: '', roleId: undefined, operatorIds: [], projectIds: [] };

export interface UserDialogProps {
  /** The user to edit; null adds a new one. */
  userId: number | null;
  onClose: () => void;
  onSaved: () => void;
}

/**
 * Add user / Edit user. Mounted only while open, so each opening starts from a fresh form and fresh
 * role, operator and project lists (specification §4). The role list is what the caller may assign.
 */
export function UserDialog({ userId, onClose, onSaved }: UserDialogProps) {
  const toasts = useToasts();
  const editing = userId !== null;
  const role = useSession((s) => s.user.role);
  const form = useConsoleForm(userSchema, EMPTY);
  const roles = useApiGet<RoleOption[]>(`Users/GetRoles?role=${encodeURIComponent(role)}`, []);
  const operators = useApiGet<OperatorOption[]>('Users/GetOperators', []);
  const chosenOperators = useWatch({ control: form.control, name: 'operatorIds' });
  const projectsPath = chosenOperators.length > 0 ? `Users/GetOperatorProjects?operatorIds=${[...chosenOperators].sort((a, b) => a - b).join(',')}` : null;
  const projects = useApiGet<ProjectOption[]>(projectsPath, []);
  const projectOptions = projectsPath === null ? [] : projects.data;

  useEffect(() => {
    if (userId === null) return;
    void api
      .get<UserDetails>('Users/GetUserById', { params: { userId } })
      .then(({ data }) =>
        form.reset({
          firstname: data.firstname,
          lastname: data.lastname,
          email: data.email,
          roleId: data.roleId,
          operatorIds: data.operatorIds,
          projectIds: data.projectIds,
        }),
      )
      .catch(onClose);
  }, [userId, form, onClose]);

  const save = form.handleSubmit(async (values) => {
    // Projects of operators no longer chosen go with them.
    const offered = new Set(projectOptions.map((p) => p.id));
    const payload: UserForm = { ...values, projectIds: values.projectIds.filter((id) => offered.has(id)) };
    try {
      if (editing) {
        const { data } = await api.post<{ message: string }>('Users/EditUser', { ...payload, id: userId, email: undefined });
        toasts.success(data.message);
      } else {
        await api.post('Users/CreateUser', payload);
        toasts.success('New user created!');
      }
      onSaved();
    } catch {
      // The API client has shown the reason; the dialog stays open to correct it.
    }
  });

  return (
    <FormDialog title={editing ? 'Edit user' : 'Add user'} onSubmit={save} onClose={onClose} submitting={form.formState.isSubmitting}>
      <TextField control={form.control} name="firstname" label="First name" autoFocus />
      <TextField control={form.control} name="lastname" label="Last name" />
      <TextField control={form.control} name="email" label="Email" type="email" disabled={editing} />
      <SelectField control={form.control} name="roleId" label="Role" options={roles.data.map((r) => ({ value: r.id, label: r.name }))} />
      <SelectField
        control={form.control}
        name="operatorIds"
        label="Operators"
        mode="multiple"
        options={operators.data.map((o) => ({ value: o.id, label: o.name }))}
      />
      <SelectField
        control={form.control}
        name="projectIds"
        label="Projects"
        mode="multiple"
        disabled={chosenOperators.length === 0}
        options={projectOptions.map((p) => ({ value: p.id, label: `${p.name} (${p.operatorName})` }))}
      />
    </FormDialog>
  );
}
