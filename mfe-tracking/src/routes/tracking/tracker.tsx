import { DownloadOutlined, MoreOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { DataTable, InfoBanner, PageContainer, type DataColumn } from 'shared-ui';

interface TrackerRow {
  localId: string;
  equipName: string;
  supplier: string;
  commDate: string;
  mkOwner: string;
  impOwner: string;
  project: string;
  comments: string;
  bssTech: string;
  localType: string;
  scheduleStatus: string;
  dateEntry: string;
  week: string;
  dayCount: number;
  currentStatus: string;
  deliveredDate: string;
}

const columns: Array<DataColumn<TrackerRow>> = [
  { key: 'localId', title: 'Local Id' },
  { key: 'equipName', title: 'Equip Name' },
  { key: 'supplier', title: 'Supplier' },
  { key: 'commDate', title: 'Comm Date', kind: 'date' },
  { key: 'mkOwner', title: 'MK Owner' },
  { key: 'impOwner', title: 'Imp Owner' },
  { key: 'project', title: 'Project' },
  { key: 'comments', title: 'Comments' },
  { key: 'bssTech', title: 'BSS Tech' },
  { key: 'localType', title: 'Local Type' },
  { key: 'scheduleStatus', title: 'Schedule Status' },
  { key: 'dateEntry', title: 'Date Entry', kind: 'date' },
  { key: 'week', title: 'Week' },
  { key: 'dayCount', title: 'Day Count', kind: 'number' },
  { key: 'currentStatus', title: 'Current Status' },
  { key: 'deliveredDate', title: 'Delivered Date', kind: 'date' },
];

export default function TrackerPage() {
  return (
    <PageContainer
      title="Tracker"
      actions={
        <>
          <Dropdown menu={{ items: [{ key: 'sync', label: 'Sync Tracker', disabled: true }] }} trigger={['click']}>
            <Button icon={<MoreOutlined />} aria-label="More options" />
          </Dropdown>
          <Button icon={<UploadOutlined />} disabled>
            Import
          </Button>
          <Button icon={<DownloadOutlined />} disabled>
            Export
          </Button>
        </>
      }
    >
      <InfoBanner label="Tracker date" date={null} fallback="Tracker date unavailable!" />
      <DataTable columns={columns} rows={[]} rowKey="localId" />
    </PageContainer>
  );
}
