import { useState } from 'react';
import type { TokenResponse } from 'contracts';
import { postJson, signInWith, takeRedirect } from './api';
import { ErrorAlert, Field, PageLink, SubmitButton, required, requiredEmail, useSignedOutForm } from './forms';

/** /auth/login. A signed-in user may open it too (the console never sent them away from it). */
export default function LoginPage() {
  const [error, setError] = useState<string | null>(null);
  const form = useSignedOutForm({ email: '', password: '' }, { email: requiredEmail, password: required });
  const submit = form.submit(async ({ email, password }) => {
    setError(null);
    try {
      await signInWith(postJson<TokenResponse>('auth/login', { email, password }), takeRedirect);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Network error!');
    }
  });
  return (
    <>
      <h1 className="cw-title">Sign in</h1>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <ErrorAlert message={error} />
        <Field {...form.field('email')} label="Email" type="email" autoComplete="username" autoFocus />
        <Field {...form.field('password')} label="Password" type="password" autoComplete="current-password" />
        <SubmitButton busy={form.submitting}>Sign in</SubmitButton>
        <p className="cw-below">
          <PageLink href="/auth/recover">Forgot your password?</PageLink>
        </p>
      </form>
    </>
  );
}
