import { Alert, Button, Form, Result, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { TokenResponse } from 'api/contracts';
import { api, errorMessage, signInWithToken } from 'shared-auth';
import { PasswordField, required, useConsoleForm } from 'shared-ui';
import * as yup from 'yup';

const schema = yup.object({
  password: required().min(10, 'must have at least 10 characters'),
  rpassword: required().oneOf([yup.ref('password')], 'does not match the password'),
});

/**
 * The two pages reached from a mailed link (complete registration, recovery confirmation): choose a
 * password, then the answer's token signs the user in.
 */
export function PasswordFromLink({ title, intro, endpoint, submitLabel }: { title: string; intro: string; endpoint: string; submitLabel: string }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token');
  const user = params.get('user');
  const [error, setError] = useState<string | null>(null);
  const form = useConsoleForm(schema, { password: '', rpassword: '' });
  const submit = form.handleSubmit(async ({ password, rpassword }) => {
    setError(null);
    try {
      const { data } = await api.post<TokenResponse>(endpoint, { password, rpassword, token, user }, { skipErrorHandling: true });
      await signInWithToken(data.token);
      navigate('/home', { replace: true });
    } catch (e) {
      setError(errorMessage(e));
    }
  });
  if (!token || !user) {
    return (
      <Result
        status="warning"
        title="This link is incomplete"
        subTitle="Open the link from your email again, or ask for a new one."
        extra={<Link to="/auth/recover">Ask for a new link</Link>}
      />
    );
  }
  return (
    <>
      <Typography.Title level={3}>{title}</Typography.Title>
      <Typography.Paragraph type="secondary">{intro}</Typography.Paragraph>
      <Form layout="vertical" onSubmitCapture={(e) => void submit(e)} component="form">
        {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} role="alert" />}
        <PasswordField control={form.control} name="password" label="New password" autoComplete="new-password" autoFocus />
        <PasswordField control={form.control} name="rpassword" label="Repeat the password" autoComplete="new-password" />
        <Button type="primary" htmlType="submit" block loading={form.formState.isSubmitting}>
          {submitLabel}
        </Button>
      </Form>
    </>
  );
}
