import { Alert, Button, Form, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { login, takeRedirect } from 'shared-auth';
import { PasswordField, TextField, required, useConsoleForm } from 'shared-ui';
import * as yup from 'yup';

const schema = yup.object({ email: required().email('is not a valid email'), password: required() });

export default function LoginPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const form = useConsoleForm(schema, { email: '', password: '' });
  const submit = form.handleSubmit(async ({ email, password }) => {
    setError(null);
    try {
      await login(email, password);
      navigate(takeRedirect(), { replace: true });
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Network error!');
    }
  });
  return (
    <>
      <Typography.Title level={3}>Sign in</Typography.Title>
      <Form layout="vertical" onSubmitCapture={(e) => void submit(e)} component="form">
        {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} role="alert" />}
        <TextField control={form.control} name="email" label="Email" type="email" autoComplete="username" autoFocus />
        <PasswordField control={form.control} name="password" label="Password" autoComplete="current-password" />
        <Button type="primary" htmlType="submit" block loading={form.formState.isSubmitting}>
          Sign in
        </Button>
        <Typography.Paragraph style={{ marginTop: 16, textAlign: 'center' }}>
          <Link to="/auth/recover">Forgot your password?</Link>
        </Typography.Paragraph>
      </Form>
    </>
  );
}
