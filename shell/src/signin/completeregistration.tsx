import { PasswordFromLink } from './PasswordFromLink';

/** /auth/completeregistration?token=…&user=…, from the confirmation mail of a new account. */
export default function CompleteRegistrationPage() {
  return (
    <PasswordFromLink
      title="Complete your registration"
      intro="Choose your password: at least 10 characters, different from your email."
      endpoint="auth/completeRegistration"
      submitLabel="Complete registration"
    />
  );
}
