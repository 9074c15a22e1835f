import { MoreOutlined, SyncOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Dropdown } from 'antd';
import { useState } from 'react';
import type { TrackerRow, TrackerSyncResponse } from 'contracts';
import { api } from 'shared-auth';
import {
  DataTable,
  ExportButton,
  ImportDialog,
  InfoBanner,
  PageContainer,
  filtersFromSearch,
  listFetcher,
  useApiGet,
  useFollowedJob,
  useToasts,
  type DataColumn,
} from 'shared-ui';
import { EXPORT_JOB_KIND, SYNC_JOB_KIND } from '../../jobKinds';

const columns: Array<DataColumn<TrackerRow>> = [
  { key: 'id', title: 'Id', hidden: true },
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
  { key: 'week', title: 'Week', kind: 'number' },
  { key: 'dayCount', title: 'Day Count', kind: 'number' },
  { key: 'currentStatus', title: 'Current Status' },
  { key: 'deliveredDate', title: 'Delivered Date', kind: 'date' },
];

const fetchTracker = listFetcher<TrackerRow>('Tracker/GetTracker');

export default function TrackerPage() {
  const toasts = useToasts();
  const { follow } = useFollowedJob(SYNC_JOB_KIND);
  // Bumped after an import or a sync: the table and the banner fetch again.
  const [version, setVersion] = useState(0);
  const [importing, setImporting] = useState(false);
  const [syncing, setSyncing] = useState(false);
  // What the last sync changed stays on the page (the toast goes after 4 s), until the next sync or a close.
  const [synced, setSynced] = useState<TrackerSyncResponse | null>(null);
  const lastUpdate = useApiGet<string | null>('Tracker/GetTrackerLastUpdate', null, version);

  const sync = async () => {
    setSyncing(true);
    try {
      // The menu button spins meanwhile; the page stays usable, so no full-screen overlay.
      const { data } = await follow(() => api.get<TrackerSyncResponse>('Tracker/TrackerUpload', { skipLoading: true }));
      toasts.success(data.message);
      setSynced(data);
      setVersion((v) => v + 1);
    } catch {
      // The API client has told the user why.
    } finally {
      setSyncing(false);
    }
  };

  return (
    <PageContainer
      title="Tracker"
      actions={
        <>
          <Dropdown
            trigger={['click']}
            disabled={syncing}
            menu={{
              items: [{ key: 'sync', label: 'Sync Tracker', icon: <SyncOutlined spin={syncing} /> }],
              onClick: ({ key }) => {
                if (key === 'sync') void sync();
              },
            }}
          >
            <Button icon={<MoreOutlined />} aria-label="More options" loading={syncing} />
          </Dropdown>
          <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
            Import
          </Button>
          <ExportButton path="Tracker/DownloadTracker" jobKind={EXPORT_JOB_KIND}>
            Export
          </ExportButton>
        </>
      }
    >
      <InfoBanner label="Tracker date" date={lastUpdate.data} loading={lastUpdate.loading} fallback="Tracker date unavailable!" />
      {synced ? (
        <Alert
          type="success"
          showIcon
          closable={{ onClose: () => setSynced(null) }}
          title={synced.message}
          data-testid="tracker-sync-changes"
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <DataTable
        tableKey="tracking.tracker"
        columns={columns}
        fetchPage={fetchTracker}
        rowKey="id"
        reloadKey={version}
        initialFilters={filtersFromSearch()}
        emptyText="The tracker is empty: import it, or sync it from the commissioning plan."
      />
      <ImportDialog
        title="Import Tracker"
        open={importing}
        onClose={() => setImporting(false)}
        importPath="Tracker/ImportTracker"
        onImported={() => setVersion((v) => v + 1)}
      />
    </PageContainer>
  );
}
