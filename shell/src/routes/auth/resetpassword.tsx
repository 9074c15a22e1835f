import { MailOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { Link, useLocation } from 'react-router-dom';

/** Where a recovery request lands: tells the user what happens next. */
export default function ResetPasswordPage() {
  const email = (useLocation().state as { email?: string } | null)?.email;
  return (
    <Result
      icon={<MailOutlined />}
      title="Check your email"
      subTitle={`If ${email ?? 'the address'} belongs to an account, a link to choose a new password is on its way. It works once, for one hour.`}
      extra={
        <Link to="/auth/login">
          <Button type="primary">Back to sign in</Button>
        </Link>
      }
    />
  );
}
