import { UploadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import type { CommissioningPlanRow } from 'contracts';
import { DataTable, ExportButton, ImportDialog, InfoBanner, PageContainer, filtersFromSearch, listFetcher, useApiGet, type DataColumn } from 'shared-ui';
import { EXPORT_JOB_KIND } from '../../jobKinds';

const columns: Array<DataColumn<CommissioningPlanRow>> = [
  { key: 'id', title: 'Id', hidden: true },
  { key: 'localId', title: 'Local Id' },
  { key: 'technology', title: 'Technology' },
  { key: 'equipCode', title: 'Equip Code' },
  { key: 'equipName', title: 'Equip Name' },
  { key: 'supplier', title: 'Supplier' },
  { key: 'workType', title: 'Work Type' },
  { key: 'commDate', title: 'Comm Date', kind: 'date' },
  { key: 'week', title: 'Week', kind: 'number' },
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

const fetchPlan = listFetcher<CommissioningPlanRow>('Tracker/GetCommissioningPlan');

export default function CommissioningPlanPage() {
  // Bumped after an import: the table and the banner fetch again.
  const [version, setVersion] = useState(0);
  const [importing, setImporting] = useState(false);
  const lastImport = useApiGet<string | null>('Tracker/GetCommissioningPlanLastImport', null, version);
  return (
    <PageContainer
      title="Commissioning Plan"
      actions={
        <>
          <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
            Import
          </Button>
          <ExportButton path="Tracker/GetCommissioningPlanExcel" jobKind={EXPORT_JOB_KIND}>
            Export
          </ExportButton>
        </>
      }
    >
      <InfoBanner label="Last import" date={lastImport.data} loading={lastImport.loading} fallback="Last import unavailable!" />
      <DataTable
        tableKey="tracking.commissioningplan"
        columns={columns}
        fetchPage={fetchPlan}
        rowKey="id"
        reloadKey={version}
        emptyText="No commissioning plan imported yet."
        // The rollout dashboard's 'planned' bars open the plan filtered to their week.
        initialFilters={filtersFromSearch()}
      />
      <ImportDialog
        title="Import Commissioning Plan"
        open={importing}
        onClose={() => setImporting(false)}
        importPath="Tracker/CommissioningPlanUpload"
        onImported={() => setVersion((v) => v + 1)}
      />
    </PageContainer>
  );
}
