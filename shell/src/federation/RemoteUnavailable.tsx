import { ReloadOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';

/** What an area shows while its remote is down (RemoteBoundary): the rest of the console keeps working. */
export default function RemoteUnavailable({ onRetry }: { onRetry: () => void }) {
  return (
    <Result
      status="warning"
      title="This area is unavailable"
      subTitle="Its part of the console could not be loaded. The rest of the console keeps working."
      extra={
        <Button type="primary" icon={<ReloadOutlined />} onClick={onRetry} autoFocus>
          Retry
        </Button>
      }
    />
  );
}
