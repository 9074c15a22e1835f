import { PasswordFromLink } from './PasswordFromLink';

/** /auth/recoverconfirmation?token=…&user=…, from the recovery mail. */
export default function RecoverConfirmationPage() {
  return (
    <PasswordFromLink
      title="Choose a new password"
      intro="At least 10 characters, different from your email."
      endpoint="auth/recoverconfirmation"
      submitLabel="Save password and sign in"
    />
  );
}
