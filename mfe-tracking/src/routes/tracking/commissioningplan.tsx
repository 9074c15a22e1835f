import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { DataTable, InfoBanner, PageContainer, type DataColumn } from 'shared-ui';

interface CommissioningPlanRow {
  id: number;
  localId: string;
  technology: string;
  equipCode: string;
  equipName: string;
  supplier: string;
  workType: string;
  commDate: string;
  week: string;
  mkOwner: string;
  impOwner: string;
  btsArea: string;
  btsTech: string;
  project: string;
  comments: string;
  statResponse: string;
  bssTech: string;
  workOrder: string;
  localType: string;
  LastUpdate: string;
}

const columns: Array<DataColumn<CommissioningPlanRow>> = [
  { key: 'id', title: 'Id', hidden: true },
  { key: 'localId', title: 'Local Id' },
  { key: 'technology', title: 'Technology' },
  { key: 'equipCode', title: 'Equip Code' },
  { key: 'equipName', title: 'Equip Name' },
  { key: 'supplier', title: 'Supplier' },
  { key: 'workType', title: 'Work Type' },
  { key: 'commDate', title: 'Comm Date', kind: 'date' },
  { key: 'week', title: 'Week' },
  { key: 'mkOwner', title: 'MK Owner' },
  { key: 'impOwner', title: 'Imp Owner' },
  { key: 'btsArea', title: 'BTS Area' },
  { key: 'btsTech', title: 'BTS Tech' },
  { key: 'project', title: 'Project' },
  { key: 'comments', title: 'Comments' },
  { key: 'statResponse', title: 'Stat Response' },
  { key: 'bssTech', title: 'BSS Tech' },
  { key: 'workOrder', title: 'Work Order' },
  { key: 'localType', title: 'Local Type' },
  { key: 'LastUpdate', title: 'Last Update', kind: 'date' },
];

export default function CommissioningPlanPage() {
  return (
    <PageContainer
      title="Commissioning Plan"
      actions={
        <>
          <Button icon={<UploadOutlined />} disabled>
            Import
          </Button>
          <Button icon={<DownloadOutlined />} disabled>
            Export
          </Button>
        </>
      }
    >
      <InfoBanner label="Last import" date={null} fallback="Last import unavailable!" />
      <DataTable columns={columns} rows={[]} rowKey="id" />
    </PageContainer>
  );
}
