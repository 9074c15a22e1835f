import { useLayoutEffect, useRef, useState, type CSSProperties, type RefObject } from 'react';
import { cellwiseTokens } from 'shared-ui/theme';
import { CONSENT_COOKIE, CONSENT_HEIGHT_VAR, PRIVACY_POLICY, hasConsent } from './consent';

/** The height a layout fills to reach the bottom of the screen: the banner lies over the page, it takes no room of it. */
export const SCREEN_HEIGHT = '100vh';
/** The screen's height above the banner while it shows: what a sticky column (the side menu) may fill and still end in view. */
export const UNCOVERED_HEIGHT = `calc(100vh - var(${CONSENT_HEIGHT_VAR}, 0px))`;

/**
 * The banner's look. Plain CSS, not antd: the same banner serves the console and the signed-out pages,
 * whose entry loads no antd (docs/architecture.md). React hoists this once into the head (href + precedence).
 */
const CONSENT_CSS = `
.cw-consent{position:fixed;inset-inline:0;bottom:0;z-index:1100;display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:16px;
  padding:12px 24px;color:#fff;background:#0f2a33;font-family:var(--cw-consent-font);font-size:14px;line-height:1.5715;box-sizing:border-box}
.cw-consent-link{padding:0;font:inherit;color:#7fd3dc;cursor:pointer;background:none;border:0;border-radius:2px}
.cw-consent-link:hover{color:#b5e7ec}
.cw-consent-agree{height:32px;padding:4px 15px;font:inherit;color:#fff;cursor:pointer;background:var(--cw-consent-primary);
  border:1px solid var(--cw-consent-primary);border-radius:var(--cw-consent-radius)}
.cw-consent-agree:hover{background:color-mix(in srgb,var(--cw-consent-primary) 80%,#fff)}
.cw-consent-link:focus-visible,.cw-consent-agree:focus-visible{outline:3px solid #7fd3dc;outline-offset:1px}
.cw-consent-dialog{box-sizing:border-box;width:520px;max-width:calc(100vw - 32px);padding:20px 24px;color:rgba(0,0,0,.88);border:0;
  border-radius:calc(var(--cw-consent-radius) + 2px);box-shadow:0 6px 16px rgba(0,0,0,.08)}
.cw-consent-dialog::backdrop{background:rgba(0,0,0,.45)}
.cw-consent-dialog-head{display:flex;align-items:center;justify-content:space-between;margin-bottom:8px}
.cw-consent-dialog-head h2{margin:0;font-size:16px;font-weight:600}
.cw-consent-close{width:32px;height:32px;font-size:20px;line-height:1;color:rgba(0,0,0,.45);cursor:pointer;background:none;border:0;
  border-radius:var(--cw-consent-radius)}
.cw-consent-close:hover{color:rgba(0,0,0,.88);background:rgba(0,0,0,.06)}
`;

/** The theme's tokens, as the variables CONSENT_CSS reads. */
const THEME = {
  '--cw-consent-primary': cellwiseTokens.colorPrimary,
  '--cw-consent-radius': `${cellwiseTokens.borderRadius}px`,
  '--cw-consent-font': cellwiseTokens.fontFamily,
} as CSSProperties;

/**
 * Publishes the banner's height as CONSENT_HEIGHT_VAR for as long as it is mounted, and keeps that much
 * room below the page, so its end (the side menu's last entry, a table's pager, the sign-in button on a
 * short screen) can be scrolled above the banner.
 */
function usePublishedHeight(banner: RefObject<HTMLElement | null>) {
  useLayoutEffect(() => {
    const element = banner.current;
    if (!element) return;
    const root = document.documentElement;
    const publish = () => root.style.setProperty(CONSENT_HEIGHT_VAR, `${Math.ceil(element.getBoundingClientRect().height)}px`);
    publish();
    document.body.style.paddingBottom = `var(${CONSENT_HEIGHT_VAR}, 0px)`;
    // The banner wraps to more lines on a narrow screen (jsdom has no ResizeObserver).
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(publish);
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      root.style.removeProperty(CONSENT_HEIGHT_VAR);
      document.body.style.removeProperty('padding-bottom');
    };
  }, [banner]);
}

/**
 * The banner itself, over the bottom of the screen (issue 47: at the top, in the page's flow, it pushed
 * every page down 56 px until agreed). The policy opens in a native modal dialog (Escape closes it).
 */
function ConsentBanner({ onAgree }: { onAgree: () => void }) {
  const banner = useRef<HTMLDivElement>(null);
  const policy = useRef<HTMLDialogElement>(null);
  usePublishedHeight(banner);
  return (
    <div ref={banner} className="cw-consent" style={THEME} role="region" aria-label="Cookie consent">
      <style href="cw-consent" precedence="default">
        {CONSENT_CSS}
      </style>
      <span>
        Cellwise uses cookies and local storage to keep you signed in and remember your choices.{' '}
        <button type="button" className="cw-consent-link" onClick={() => policy.current?.showModal()}>
          Read the privacy policy
        </button>
      </span>
      <button type="button" className="cw-consent-agree" onClick={onAgree}>
        I Agree
      </button>
      <dialog ref={policy} className="cw-consent-dialog" aria-labelledby="cw-policy-title">
        <div className="cw-consent-dialog-head">
          <h2 id="cw-policy-title">Privacy policy</h2>
          <button type="button" className="cw-consent-close" aria-label="Close" onClick={() => policy.current?.close()}>
            ×
          </button>
        </div>
        <p>{PRIVACY_POLICY}</p>
      </dialog>
    </div>
  );
}

/**
 * The cookie banner of the console and of the signed-out pages: shown until the consent cookie exists;
 * I Agree sets it for a year.
 */
export function CookieConsent() {
  const [open, setOpen] = useState(() => !hasConsent());
  if (!open) return null;
  const agree = () => {
    document.cookie = `${CONSENT_COOKIE}=1; max-age=${365 * 24 * 3600}; path=/; SameSite=Lax`;
    setOpen(false);
  };
  return <ConsentBanner onAgree={agree} />;
}
