import { Button, Flex, Modal, Typography } from 'antd';
import { useState } from 'react';

export const CONSENT_COOKIE = 'cellwise_cookie_consent';

function hasConsent(): boolean {
  return document.cookie.split(';').some((c) => c.trim().startsWith(`${CONSENT_COOKIE}=`));
}

/** Shown until the consent cookie exists; I Agree sets it for a year. */
export function CookieConsent() {
  const [open, setOpen] = useState(() => !hasConsent());
  const [policyOpen, setPolicyOpen] = useState(false);
  if (!open) return null;
  const agree = () => {
    document.cookie = `${CONSENT_COOKIE}=1; max-age=${365 * 24 * 3600}; path=/; SameSite=Lax`;
    setOpen(false);
  };
  return (
    <div
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
        <Button type="primary" onClick={agree}>
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
