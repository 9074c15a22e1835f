import { Alert, Button, Form, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { api, errorMessage } from 'shared-auth';
import { TextField, required, useConsoleForm } from 'shared-ui';
import * as yup from 'yup';

const schema = yup.object({ email: required().email('is not a valid email') });

/** Asks for a recovery link; the answer is the same whether the address has an account or not. */
export default function RecoverPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const form = useConsoleForm(schema, { email: '' });
  const submit = form.handleSubmit(async ({ email }) => {
    setError(null);
    try {
      await api.post('auth/recover', { email }, { skipErrorHandling: true });
      navigate('/auth/resetpassword', { state: { email } });
    } catch (e) {
      setError(errorMessage(e));
    }
  });
  return (
    <>
      <Typography.Title level={3}>Recover your password</Typography.Title>
      <Typography.Paragraph type="secondary">We will email you a link to choose a new password.</Typography.Paragraph>
      <Form layout="vertical" onSubmitCapture={(e) => void submit(e)} component="form">
        {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} role="alert" />}
        <TextField control={form.control} name="email" label="Email" type="email" autoComplete="username" autoFocus />
        <Button type="primary" htmlType="submit" block loading={form.formState.isSubmitting}>
          Send recovery link
        </Button>
        <Typography.Paragraph style={{ marginTop: 16, textAlign: 'center' }}>
          <Link to="/auth/login">Back to sign in</Link>
        </Typography.Paragraph>
      </Form>
    </>
  );
}
