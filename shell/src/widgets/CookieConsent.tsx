import { Button, Flex } from 'antd';
import { lazy, Suspense, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { CONSENT_COOKIE, CONSENT_HEIGHT_VAR, hasConsent } from './consent';

const PrivacyPolicyDialog = lazy(() => import('./PrivacyPolicyDialog'));

/** The height a layout fills to reach the bottom of the screen: the banner lies over the page, it takes no room of it. */
export const SCREEN_HEIGHT = '100vh';
/** The screen's height above the banner while it shows: what a sticky column (the side menu) may fill and still end in view. */
export const UNCOVERED_HEIGHT = `calc(100vh - var(${CONSENT_HEIGHT_VAR}, 0px))`;

/**
 * Publishes the banner's height as CONSENT_HEIGHT_VAR for as long as it is mounted, and keeps that much
 * room below the page, so its end (the side menu's last entry, a table's pager) can be scrolled above
 * the banner.
 */
function usePublishedHeight(banner: RefObject<HTMLElement | null>) {
  useLayoutEffect(() => {
    const element = banner.current;
    if (!element) return;
    const root = document.documentElement;
    const publish = () => root.style.setProperty(CONSENT_HEIGHT_VAR, `${Math.ceil(element.getBoundingClientRect().height)}px`);
    publish();
    document.body.style.paddingBottom = `var(${CONSENT_HEIGHT_VAR}, 0px)`;
    // The banner wraps to more lines on a narrow screen.
    const observer = new ResizeObserver(publish);
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty(CONSENT_HEIGHT_VAR);
      document.body.style.removeProperty('padding-bottom');
    };
  }, [banner]);
}

/**
 * The banner itself, over the bottom of the screen (issue 47: at the top, in the page's flow, it pushed
 * every page down 56 px until agreed). The room kept below the page (usePublishedHeight) means nothing
 * stays under it for good.
 */
function ConsentBanner({ onAgree }: { onAgree: () => void }) {
  const [policyOpen, setPolicyOpen] = useState(false);
  const banner = useRef<HTMLDivElement>(null);
  usePublishedHeight(banner);
  return (
    <div
      ref={banner}
      role="region"
      aria-label="Cookie consent"
      style={{ position: 'fixed', insetInline: 0, bottom: 0, zIndex: 1100, background: '#0f2a33', color: '#fff', padding: '12px 24px' }}
    >
      <Flex justify="space-between" align="center" gap={16} wrap>
        <span>
          Cellwise uses cookies and local storage to keep you signed in and remember your choices.{' '}
          <Button type="link" onClick={() => setPolicyOpen(true)} style={{ color: '#7fd3dc', padding: 0, height: 'auto', fontSize: 'inherit' }}>
            Read the privacy policy
          </Button>
        </span>
        <Button type="primary" onClick={onAgree}>
          I Agree
        </Button>
      </Flex>
      {policyOpen && (
        <Suspense fallback={null}>
          <PrivacyPolicyDialog onClose={() => setPolicyOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}

/**
 * Shown until the consent cookie exists; I Agree sets it for a year.
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
