import { PasswordFromLink } from './PasswordFromLink';

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
