import { Button, Card, Form, Tabs } from 'antd';
import { useEffect, useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import type { ChangePasswordResponse, UserInfo, UserOperators } from 'contracts';
import { api, can, principalOf, replacingSession, setToken, setUser, useSession } from 'shared-auth';
import { PageContainer, PasswordField, SelectField, TextField, claimJobOutcome, required, useConsoleForm, useToasts } from 'shared-ui';
import * as yup from 'yup';

export const SETTINGS_TABS = ['general', 'security'] as const;

/** The key of the hub's notification of a password change (api/src/notifications/index.ts). */
const PASSWORD_CHANGED_KEY = 'password-changed';

const profileSchema = yup.object({
  firstname: required(),
  lastname: required(),
  email: yup.string().default(''),
  operatorId: yup.number().typeError('is required').required('is required'),
});

function GeneralTab() {
  const toasts = useToasts();
  const user = useSession((s) => s.user);
  const mayChooseOperator = useSession((s) => can(principalOf(s), 'canChooseOperator'));
  const [operators, setOperators] = useState<UserOperators>([]);
  const [email, setEmail] = useState('');
  const form = useConsoleForm(profileSchema, { firstname: user.firstname, lastname: user.lastname, email: '', operatorId: user.operator?.id });

  useEffect(() => {
    if (user.id === null) return;
    void api.get<UserOperators>('Account/GetUserOperators', { params: { userId: user.id } }).then(({ data }) => setOperators(data));
    void api.post<UserInfo>('account/GetUserInfo').then(({ data }) => {
      setEmail(data.email);
      form.reset({ firstname: data.firstname, lastname: data.lastname, email: data.email, operatorId: data.operator?.id });
    });
  }, [user.id, form]);

  const save = form.handleSubmit(async (values) => {
    const { data } = await api.post<UserInfo>('Account/UpdateSettings', {
      firstname: values.firstname,
      lastname: values.lastname,
      operatorId: values.operatorId,
    });
    setUser(data);
    form.reset({ ...values });
    toasts.success('Profile updated!');
  });

  return (
    <Card title="Profile" style={{ maxWidth: 560 }}>
      <Form layout="vertical" component="form" onSubmitCapture={(e) => void save(e)}>
        <TextField control={form.control} name="firstname" label="First name" autoComplete="given-name" />
        <TextField control={form.control} name="lastname" label="Last name" autoComplete="family-name" />
        <Form.Item label="Email">
          <span aria-label="Email">{email}</span>
        </Form.Item>
        <SelectField
          control={form.control}
          name="operatorId"
          label="Operator"
          disabled={!mayChooseOperator}
          options={operators.map((o) => ({ value: o.id, label: o.name }))}
        />
        <Button type="primary" htmlType="submit" loading={form.formState.isSubmitting}>
          Save Changes
        </Button>
      </Form>
    </Card>
  );
}

/** The server's first rule (docs/architecture.md#accounts-sessions-and-abuse-limits), told before a round trip; it judges the rest. */
const MIN_PASSWORD_LENGTH = 10;

const passwordSchema = yup.object({
  oldpassword: required(),
  newpassword: required().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`),
  confirmnewpassword: required().oneOf([yup.ref('newpassword')], 'does not match the new password'),
});

function SecurityTab() {
  const toasts = useToasts();
  const form = useConsoleForm(passwordSchema, { oldpassword: '', newpassword: '', confirmnewpassword: '' });
  const save = form.handleSubmit(async (values) => {
    // One toast for one change (issue 47): the hub's 'Your password was changed.' still lands in the bell,
    // and in the user's other consoles, but this page says it already.
    const outcome = claimJobOutcome(PASSWORD_CHANGED_KEY);
    try {
      // Older tokens are refused after a password change; the answer carries this session's new one, and
      // calls made until it is stored wait for it.
      const data = await replacingSession(async () => {
        const answer = await api.post<ChangePasswordResponse>('Account/ChangePassword', values, { replacesSession: true });
        setToken(answer.data.token);
        return answer.data;
      });
      form.reset();
      toasts.success(data.message || 'Password changed!');
      outcome.settle();
    } catch {
      // A refusal (wrong old password, a weak new one) is shown by the API client; caught here, it no
      // longer reaches the browser as an unhandled rejection.
      outcome.release();
    }
  });
  return (
    <Card title="Change password" style={{ maxWidth: 560 }}>
      <Form layout="vertical" component="form" onSubmitCapture={(e) => void save(e)}>
        <PasswordField control={form.control} name="oldpassword" label="Old password" autoComplete="current-password" />
        <PasswordField control={form.control} name="newpassword" label="New password" autoComplete="new-password" />
        <PasswordField control={form.control} name="confirmnewpassword" label="Confirm new password" autoComplete="new-password" />
        <Button type="primary" htmlType="submit" disabled={!form.formState.isValid} loading={form.formState.isSubmitting}>
          Save changes
        </Button>
      </Form>
    </Card>
  );
}

/** /management/settings/:tab — General (profile) and Security (password). */
export default function SettingsPage() {
  const { tab } = useParams();
  const navigate = useNavigate();
  if (!tab) return <Navigate to="/home" replace />;
  if (!(SETTINGS_TABS as readonly string[]).includes(tab)) return <Navigate to="/errors/error-404" replace />;
  return (
    <PageContainer title="Settings">
      <Tabs
        activeKey={tab}
        onChange={(key) => navigate(`/management/settings/${key}`)}
        items={[
          { key: 'general', label: 'General', children: <GeneralTab /> },
          { key: 'security', label: 'Security', children: <SecurityTab /> },
        ]}
      />
    </PageContainer>
  );
}
