import { useState } from 'react';
import { postJson } from './api';
import { ErrorAlert, Field, PageLink, SubmitButton, requiredEmail, useSignedOutForm } from './forms';
import { navigate } from './router';

/** /auth/recover: asks for a recovery link; the answer is the same whether the address has an account or not. */
export default function RecoverPage() {
  const [error, setError] = useState<string | null>(null);
  const form = useSignedOutForm({ email: '' }, { email: requiredEmail });
  const submit = form.submit(async ({ email }) => {
    setError(null);
    try {
      await postJson('auth/recover', { email });
      navigate('/auth/resetpassword', { email });
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Network error!');
    }
  });
  return (
    <>
      <h1 className="cw-title">Recover your password</h1>
      <p className="cw-intro">We will email you a link to choose a new password.</p>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <ErrorAlert message={error} />
        <Field {...form.field('email')} label="Email" type="email" autoComplete="username" autoFocus />
        <SubmitButton busy={form.submitting}>Send recovery link</SubmitButton>
        <p className="cw-below">
          <PageLink href="/auth/login">Back to sign in</PageLink>
        </p>
      </form>
    </>
  );
}
