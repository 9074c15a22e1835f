import { Button, Flex, Modal, Typography } from 'antd';
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

export const CONSENT_COOKIE = 'cellwise_cookie_consent';

/**
 * The banner's height while it shows (0px otherwise), on the document root: layouts that are as tall
 * as the screen (the sticky side menu) subtract it, so the banner takes its own room instead of
 * covering their bottom.
 */
export const CONSENT_HEIGHT_VAR = '--cw-consent-height';

/** The height of the screen a page may fill: all of it, less the banner's room while the banner shows. */
export const SCREEN_HEIGHT = `calc(100vh - var(${CONSENT_HEIGHT_VAR}, 0px))`;

/** Reserves the banner's height below the page (body padding and CONSENT_HEIGHT_VAR) for as long as it is mounted. */
function useReservedSpace(banner: RefObject<HTMLElement | null>) {
  useLayoutEffect(() => {
    const element = banner.current;
    if (!element) return;
    const root = document.documentElement;
    const body = document.body;
    const previousPadding = body.style.paddingBottom;
    const reserve = () => {
      const height = `${Math.ceil(element.getBoundingClientRect().height)}px`;
      root.style.setProperty(CONSENT_HEIGHT_VAR, height);
      body.style.paddingBottom = height;
    };
    reserve();
    // The banner wraps to more lines on a narrow screen.
    const observer = new ResizeObserver(reserve);
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty(CONSENT_HEIGHT_VAR);
      body.style.paddingBottom = previousPadding;
    };
  }, [banner]);
}

function hasConsent(): boolean {
  return document.cookie.split(';').some((c) => c.trim().startsWith(`${CONSENT_COOKIE}=`));
}

/** The banner itself: mounted only while it shows, so the room it reserves goes with it. */
function ConsentBanner({ onAgree }: { onAgree: () => void }) {
  const [policyOpen, setPolicyOpen] = useState(false);
  const banner = useRef<HTMLDivElement>(null);
  useReservedSpace(banner);
  return (
    <div
      ref={banner}
      role="region"
      aria-label="Cookie consent"
      style={{ position: 'fixed', insetInline: 0, bottom: 0, zIndex: 1000, background: '#0f2a33', color: '#fff', padding: '12px 24px' }}
    >
      <Flex justify="space-between" align="center" gap={16} wrap>
        <Typography.Text style={{ color: '#fff' }}>
          Cellwise uses cookies and local storage to keep you signed in and remember your choices.{' '}
          <Typography.Link onClick={() => setPolicyOpen(true)} style={{ color: '#7fd3dc' }}>
            Read the privacy policy
          </Typography.Link>
        </Typography.Text>
        <Button type="primary" onClick={onAgree}>
          I Agree
        </Button>
      </Flex>
      <Modal open={policyOpen} title="Privacy policy" onCancel={() => setPolicyOpen(false)} footer={null}>
        <Typography.Paragraph>
          Cellwise stores your session token in your browser so you stay signed in, and a cookie that records this consent. It keeps your name, email, role,
          operators and projects to decide what you may see, and records who changed what and when for audit. Nothing is shared outside the company.
        </Typography.Paragraph>
      </Modal>
    </div>
  );
}

/**
 * Shown until the consent cookie exists; I Agree sets it for a year. While it shows it takes its own
 * room at the bottom of the screen: nothing of the page is hidden under it.
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
