import { useState } from 'react';
import type { TokenResponse } from 'contracts';
import { postJson, signInWith } from './api';
import { ErrorAlert, Field, Outcome, PageLink, SubmitButton, required, type Values, useSignedOutForm } from './forms';

type Fields = 'password' | 'rpassword';

const rules = {
  password: (value: string) => required(value) ?? (value.length < 10 ? 'must have at least 10 characters' : undefined),
  rpassword: (value: string, all: Values<Fields>) => required(value) ?? (value !== all.password ? 'does not match the password' : undefined),
};

const WarningIcon = () => (
  <svg width="72" height="72" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <circle cx="12" cy="12" r="11" fill="currentColor" />
    <path d="M12 6.5v7" stroke="#fff" strokeWidth="2.2" strokeLinecap="round" />
    <circle cx="12" cy="17.3" r="1.3" fill="#fff" />
  </svg>
);

/**
 * The two pages reached from a mailed link (complete registration, recovery confirmation): choose a
 * password, then the answer's token signs the user in and the console opens at /home.
 */
export function PasswordFromLink({ title, intro, endpoint, submitLabel }: { title: string; intro: string; endpoint: string; submitLabel: string }) {
  const params = new URLSearchParams(window.location.search);
  const token = params.get('token');
  const user = params.get('user');
  const [error, setError] = useState<string | null>(null);
  const form = useSignedOutForm({ password: '', rpassword: '' }, rules);
  const submit = form.submit(async ({ password, rpassword }) => {
    setError(null);
    try {
      await signInWith(postJson<TokenResponse>(endpoint, { password, rpassword, token, user }), () => '/home');
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Network error!');
    }
  });
  if (!token || !user) {
    return (
      <Outcome
        icon={<WarningIcon />}
        tone="warning"
        title="This link is incomplete"
        subTitle="Open the link from your email again, or ask for a new one."
        extra={<PageLink href="/auth/recover">Ask for a new link</PageLink>}
      />
    );
  }
  return (
    <>
      <h1 className="cw-title">{title}</h1>
      <p className="cw-intro">{intro}</p>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <ErrorAlert message={error} />
        <Field {...form.field('password')} label="New password" type="password" autoComplete="new-password" autoFocus />
        <Field {...form.field('rpassword')} label="Repeat the password" type="password" autoComplete="new-password" />
        <SubmitButton busy={form.submitting}>{submitLabel}</SubmitButton>
      </form>
    </>
  );
}
