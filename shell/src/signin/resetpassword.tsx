import { Outcome, PageLink } from './forms';
import { historyState } from './router';

const MailIcon = () => (
  <svg width="72" height="72" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.5" aria-hidden="true" focusable="false">
    <rect x="2.5" y="4.5" width="19" height="15" rx="2" />
    <path d="M3 6l9 7 9-7" strokeLinejoin="round" />
  </svg>
);

/** /auth/resetpassword: where a recovery request lands; tells the user what happens next. */
export default function ResetPasswordPage() {
  const { email } = historyState<{ email: string }>();
  return (
    <Outcome
      icon={<MailIcon />}
      title="Check your email"
      subTitle={`If ${email ?? 'the address'} belongs to an account, a link to choose a new password is on its way. It works once, for one hour.`}
      extra={
        <PageLink href="/auth/login" className="cw-btn cw-btn-primary">
          Back to sign in
        </PageLink>
      }
    />
  );
}
