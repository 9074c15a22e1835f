import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { DataTable, InfoBanner, PageContainer, type DataColumn } from 'shared-ui';

interface WorkOrderDeltaRow {
  siteId: string;
  woType: string;
  woId: string;
  trackerStatus: string;
  wowStatus: string;
  wowCloseDate: string;
  wowLastChange: string;
  trackerLastUpdate: string;
  wowLastUpdate: string;
  action: string;
}

const columns: Array<DataColumn<WorkOrderDeltaRow>> = [
  { key: 'siteId', title: 'Site Id' },
  { key: 'woType', title: 'WO Type' },
  { key: 'woId', title: 'WO Id' },
  { key: 'trackerStatus', title: 'Tracker Status' },
  { key: 'wowStatus', title: 'WOW Status' },
  { key: 'wowCloseDate', title: 'WOW Close Date', kind: 'date' },
  { key: 'wowLastChange', title: 'WOW Last Change', kind: 'date' },
  { key: 'trackerLastUpdate', title: 'Tracker Last Update', kind: 'date' },
  { key: 'wowLastUpdate', title: 'WOW Last Update', kind: 'date' },
  { key: 'action', title: 'Action' },
];

export default function WorkOrderStatusPage() {
  return (
    <PageContainer
      title="Work Order Status"
      actions={
        <>
          <Button icon={<UploadOutlined />} disabled>
            Import Status
          </Button>
          <Button icon={<DownloadOutlined />} disabled>
            Export Status
          </Button>
          <Button icon={<DownloadOutlined />} disabled>
            Export Delta
          </Button>
        </>
      }
    >
      <InfoBanner label="Last import" date={null} fallback="Last import unavailable!" />
      <DataTable columns={columns} rows={[]} rowKey="woId" />
    </PageContainer>
  );
}
