import { useEffect, type ComponentType } from 'react';
import { CookieConsent } from '../widgets/CookieConsent';
import { browser } from './api';
import CompleteRegistrationPage from './completeregistration';
import LoginPage from './login';
import RecoverPage from './recover';
import RecoverConfirmationPage from './recoverconfirmation';
import ResetPasswordPage from './resetpassword';
import { usePath } from './router';

/** Every signed-out page (specification §2: the public authentication pages), by route. */
export const PAGES: Record<string, ComponentType> = {
  '/auth/login': LoginPage,
  '/auth/recover': RecoverPage,
  '/auth/resetpassword': ResetPasswordPage,
  '/auth/recoverconfirmation': RecoverConfirmationPage,
  '/auth/completeregistration': CompleteRegistrationPage,
};

const TITLES: Record<string, string> = {
  '/auth/login': 'Sign in',
  '/auth/recover': 'Recover your password',
  '/auth/resetpassword': 'Check your email',
  '/auth/recoverconfirmation': 'Choose a new password',
  '/auth/completeregistration': 'Complete your registration',
};

/** An /auth/ path that is no page goes where the console sends any unknown path. */
function NotAPage() {
  useEffect(() => browser.load('/errors/error-404'), []);
  return null;
}

/** The signed-out pages' frame (the console's plain layout): a logo bar and a centred card. */
export function SignedOutApp() {
  const path = usePath();
  const Page = PAGES[path];
  useEffect(() => {
    document.title = TITLES[path] ? `${TITLES[path]} · Cellwise` : 'Cellwise';
  }, [path]);
  if (!Page) return <NotAPage />;
  return (
    <>
      <CookieConsent />
      <div className="cw-page">
        <header className="cw-header">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span className="cw-brand">Cellwise</span>
        </header>
        <main className="cw-main">
          <div className="cw-card">
            <Page key={path} />
          </div>
        </main>
      </div>
    </>
  );
}
