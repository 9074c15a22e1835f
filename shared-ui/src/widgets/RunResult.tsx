import { DownloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import type { RunHistoryRow } from 'api/contracts';
import { api } from 'shared-auth';
import { listFetcher } from '../api/listFetcher';
import { downloadExport, type FileResponse } from '../files/transfer';
import { DataTable, type DataColumn } from './DataTable';
import { Note } from './Note';
import type { RunResultCardProps } from './RunResultCard';

/**
 * What every planning, validation and optimisation page shows of a run (DESIGN §7.4): the verdict
 * counts and the first rows of its main result, then its history with the workbook of each run.
 */

const LoadedRunResultCard = lazy(() => import('./RunResultCard').then((m) => ({ default: m.RunResultCardContent })));

/**
 * A run's answer (see RunResultCardContent), loaded when a run first ends: a page shows it only after a
 * run, and its verdict tags would otherwise come with the page's first load.
 */
export function RunResultCard(props: RunResultCardProps) {
  return (
    <Suspense fallback={null}>
      <LoadedRunResultCard {...props} />
    </Suspense>
  );
}

/** Downloads a past run's workbook through its export route (e.g. 'Validation/GetCpichValidationExport', param 'cpichValidationId'). */
function HistoryDownload({ row, exportPath, idParam }: { row: RunHistoryRow; exportPath: string; idParam: string }) {
  const [busy, setBusy] = useState(false);
  if (!row.hasFile) return <Note>{row.message ?? 'No workbook'}</Note>;
  const download = async () => {
    setBusy(true);
    try {
      const { data } = await api.get<FileResponse>(exportPath, { params: { [idParam]: row.id }, outlivesPage: true });
      await downloadExport(data.file);
    } catch {
      // The API client has said why.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="small" icon={<DownloadOutlined />} loading={busy} onClick={() => void download()} aria-label={`Download the workbook of run ${row.id}`}>
      Download
    </Button>
  );
}

export interface RunHistoryTableProps {
  caption: string;
  /** The history call, e.g. 'Validation/GetCpichValidationHistory'. */
  historyPath: string;
  /** The export call and its id parameter, as the specification names them. */
  exportPath: string;
  idParam: string;
  /** Which of the history's fields this page shows (specification §3), in order; `outcome` and the download follow. */
  fields: ReadonlyArray<'user' | 'sites' | 'site' | 'files' | 'antenna' | 'lteBands'>;
  reloadKey?: number;
  emptyText?: ReactNode;
}

const FIELD_TITLES = { user: 'User', sites: 'Sites', site: 'Site', files: 'Files', antenna: 'Antenna', lteBands: 'LTE Bands' } as const;

/** A run history, paged on the server, newest first, each run's workbook a click away. */
export function RunHistoryTable({ caption, historyPath, exportPath, idParam, fields, reloadKey }: RunHistoryTableProps) {
  const [fetchPage] = useState(() => listFetcher<RunHistoryRow>(historyPath));
  const columns: Array<DataColumn<RunHistoryRow>> = [
    { key: 'id', title: 'Id', hidden: true },
    ...fields.map((key) => ({ key, title: FIELD_TITLES[key], wrap: key === 'sites' || key === 'files' })),
    { key: 'runDate', title: 'Run Date', kind: 'date' },
    { key: 'outcome', title: 'Outcome', wrap: true },
    {
      key: 'hasFile',
      title: 'Workbook',
      filter: false,
      sortable: false,
      render: (row) => <HistoryDownload row={row} exportPath={exportPath} idParam={idParam} />,
    },
  ];
  return (
    <DataTable
      tableKey={`history:${historyPath}`}
      caption={caption}
      columns={columns}
      fetchPage={fetchPage}
      rowKey="id"
      reloadKey={reloadKey}
      emptyText="No runs yet."
    />
  );
}
