import { Modal, Typography } from 'antd';
import { PRIVACY_POLICY } from './consent';

/** The cookie banner's policy text; its own module so the banner (on every first visit) does not load Modal. */
export default function PrivacyPolicyDialog({ onClose }: { onClose: () => void }) {
  return (
    <Modal open title="Privacy policy" onCancel={onClose} footer={null}>
      <Typography.Paragraph>{PRIVACY_POLICY}</Typography.Paragraph>
    </Modal>
  );
}
