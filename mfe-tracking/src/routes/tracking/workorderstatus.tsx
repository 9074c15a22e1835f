import { UploadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import type { WorkOrderDeltaRow } from 'contracts';
import { DataTable, ExportButton, ImportDialog, InfoBanner, PageContainer, filtersFromSearch, listFetcher, useApiGet, type DataColumn } from 'shared-ui';
import { EXPORT_JOB_KIND } from '../../jobKinds';

/**
 * The row's work order, then the action to take on it (what users come here for), then the facts
 * behind it: after nine columns of statuses and dates the action was off screen at desktop width.
 */
const columns: Array<DataColumn<WorkOrderDeltaRow>> = [
  { key: 'id', title: 'Id', hidden: true },
  { key: 'siteId', title: 'Site Id' },
  { key: 'woType', title: 'WO Type' },
  { key: 'woId', title: 'WO Id' },
  { key: 'action', title: 'Action' },
  { key: 'trackerStatus', title: 'Tracker Status' },
  { key: 'wowStatus', title: 'WOW Status' },
  { key: 'wowCloseDate', title: 'WOW Close Date', kind: 'date' },
  { key: 'wowLastChange', title: 'WOW Last Change', kind: 'date' },
  { key: 'trackerLastUpdate', title: 'Tracker Last Update', kind: 'date' },
  { key: 'wowLastUpdate', title: 'WOW Last Update', kind: 'date' },
];

const fetchDelta = listFetcher<WorkOrderDeltaRow>('Tracker/GetWorkOrderStatusDelta');

export default function WorkOrderStatusPage() {
  // Bumped after an import: the delta and the banner fetch again.
  const [version, setVersion] = useState(0);
  const [importing, setImporting] = useState(false);
  const lastImport = useApiGet<string | null>('Tracker/GetWorkOrderStatusLastImport', null, version);
  return (
    <PageContainer
      title="Work Order Status"
      actions={
        <>
          <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
            Import Status
          </Button>
          <ExportButton path="Tracker/GetWorkOrderStatusExcel" jobKind={EXPORT_JOB_KIND}>
            Export Status
          </ExportButton>
          <ExportButton path="Tracker/GetWorkOrderStatusDeltaExcel" jobKind={EXPORT_JOB_KIND}>
            Export Delta
          </ExportButton>
        </>
      }
    >
      <InfoBanner label="Last import" date={lastImport.data} loading={lastImport.loading} fallback="Last import unavailable!" />
      <DataTable
        tableKey="tracking.workorderstatus"
        caption="Work Order Delta"
        columns={columns}
        fetchPage={fetchDelta}
        rowKey="id"
        reloadKey={version}
        initialFilters={filtersFromSearch()}
        emptyText="No differences between the tracker and the work order status."
      />
      <ImportDialog
        title="Import Work Order Status"
        open={importing}
        onClose={() => setImporting(false)}
        importPath="Tracker/WorkOrderStatusUpload"
        onImported={() => setVersion((v) => v + 1)}
      />
    </PageContainer>
  );
}
