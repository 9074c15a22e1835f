/**
 * The cookie consent's cookie, texts and layout variable: the banner (CookieConsent.tsx, on the console
 * and the signed-out pages) and the layouts that keep room for it.
 */
export const CONSENT_COOKIE = 'cellwise_cookie_consent';

/** The banner's height while it shows (0px otherwise), on the document root. */
export const CONSENT_HEIGHT_VAR = '--cw-consent-height';

export const PRIVACY_POLICY =
  'Cellwise stores your session token in your browser so you stay signed in, and a cookie that records this consent. It keeps your name, email, role, ' +
  'operators and projects to decide what you may see, and records who changed what and when for audit. Nothing is shared outside the company.';

export function hasConsent(): boolean {
  return document.cookie.split(';').some((c) => c.trim().startsWith(`${CONSENT_COOKIE}=`));
}
