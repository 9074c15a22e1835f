import { Button, Flex } from 'antd';
import { lazy, Suspense, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { CONSENT_COOKIE, CONSENT_HEIGHT_VAR, hasConsent } from './consent';

const PrivacyPolicyDialog = lazy(() => import('./PrivacyPolicyDialog'));

/**
 * The height a layout fills to reach the bottom of the screen: all of it, less the banner above it
 * while the banner shows (so a short page does not scroll just because of the banner).
 */
export const SCREEN_HEIGHT = `calc(100vh - var(${CONSENT_HEIGHT_VAR}, 0px))`;

/** Publishes the banner's height as CONSENT_HEIGHT_VAR for as long as it is mounted. */
function usePublishedHeight(banner: RefObject<HTMLElement | null>) {
  useLayoutEffect(() => {
    const element = banner.current;
    if (!element) return;
    const root = document.documentElement;
    const publish = () => root.style.setProperty(CONSENT_HEIGHT_VAR, `${Math.ceil(element.getBoundingClientRect().height)}px`);
    publish();
    // The banner wraps to more lines on a narrow screen.
    const observer = new ResizeObserver(publish);
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty(CONSENT_HEIGHT_VAR);
    };
  }, [banner]);
}

/**
 * The banner itself, at the top of the page in its flow: it pushes the console down instead of lying
 * over it, so no control is ever under it (fixed at the bottom it hid the side menu's end and the
 * tables' pagination until accepted).
 */
function ConsentBanner({ onAgree }: { onAgree: () => void }) {
  const [policyOpen, setPolicyOpen] = useState(false);
  const banner = useRef<HTMLDivElement>(null);
  usePublishedHeight(banner);
  return (
    <div ref={banner} role="region" aria-label="Cookie consent" style={{ background: '#0f2a33', color: '#fff', padding: '12px 24px' }}>
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
 * Shown until the consent cookie exists; I Agree sets it for a year. While it shows it takes its own
 * room above the console: nothing of the page is hidden under it.
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
