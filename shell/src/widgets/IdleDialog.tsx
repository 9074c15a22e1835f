import { Modal, Typography } from 'antd';
import { logout } from 'shared-auth';

/** The idle warning's dialog (IdleWarning decides when it shows); its own module so /home does not load Modal for it. */
export default function IdleDialog({ remaining, onStay }: { remaining: string; onStay: () => void }) {
  return (
    <Modal
      open
      title="Are you still there?"
      okText="Stay signed in"
      cancelText="Sign out"
      closable={false}
      maskClosable={false}
      onOk={onStay}
      onCancel={logout}
    >
      <Typography.Paragraph>
        You have been inactive for a while. For your security you will be signed out in <strong>{remaining}</strong>.
      </Typography.Paragraph>
    </Modal>
  );
}
