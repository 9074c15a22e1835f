import { useLayoutEffect, useRef, useState } from 'react';
import { CONSENT_COOKIE, CONSENT_HEIGHT_VAR, PRIVACY_POLICY, hasConsent } from '../widgets/consent';

/**
 * The console's cookie banner (widgets/CookieConsent.tsx) without antd: same texts, cookie and
 * behaviour. It sits in the page's flow above the card and publishes its height, so the page fills the
 * rest of the screen; the policy opens in a native modal dialog (Escape closes it).
 */
export function CookieConsent() {
  const [open, setOpen] = useState(() => !hasConsent());
  const banner = useRef<HTMLDivElement>(null);
  const policy = useRef<HTMLDialogElement>(null);

  useLayoutEffect(() => {
    const element = banner.current;
    if (!open || !element) return;
    const root = document.documentElement;
    const publish = () => root.style.setProperty(CONSENT_HEIGHT_VAR, `${Math.ceil(element.getBoundingClientRect().height)}px`);
    publish();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(publish);
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      root.style.removeProperty(CONSENT_HEIGHT_VAR);
    };
  }, [open]);

  if (!open) return null;
  const agree = () => {
    document.cookie = `${CONSENT_COOKIE}=1; max-age=${365 * 24 * 3600}; path=/; SameSite=Lax`;
    setOpen(false);
  };
  return (
    <div ref={banner} className="cw-consent" role="region" aria-label="Cookie consent">
      <span>
        Cellwise uses cookies and local storage to keep you signed in and remember your choices.{' '}
        <button type="button" className="cw-link" onClick={() => policy.current?.showModal()}>
          Read the privacy policy
        </button>
      </span>
      <button type="button" className="cw-btn cw-btn-primary" onClick={agree}>
        I Agree
      </button>
      <dialog ref={policy} className="cw-dialog" aria-labelledby="cw-policy-title">
        <div className="cw-dialog-head">
          <h2 className="cw-dialog-title" id="cw-policy-title">
            Privacy policy
          </h2>
          <button type="button" className="cw-close" aria-label="Close" onClick={() => policy.current?.close()}>
            ×
          </button>
        </div>
        <p>{PRIVACY_POLICY}</p>
      </dialog>
    </div>
  );
}
