import { DownloadOutlined } from '@ant-design/icons';
import { Button, Card } from 'antd';
import { FileDropZone, InfoBanner, PageContainer } from 'shared-ui';

export default function UploadLogsPage() {
  return (
    <PageContainer
      title="Upload Logs"
      actions={
        <Button icon={<DownloadOutlined />} disabled>
          Get MoBatch Scripts
        </Button>
      }
    >
      <InfoBanner label="Logs date" date={null} fallback="Logs date unavailable!" />
      <Card>
        <FileDropZone multiple acceptedTypes={['.zip']} />
      </Card>
    </PageContainer>
  );
}
