import { DownloadOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Tag } from 'antd';
import { useState, type ReactNode } from 'react';
import type { RunHistoryRow, RunResponse } from 'api/contracts';
import { api } from 'shared-auth';
import { listFetcher } from '../api/listFetcher';
import { downloadExport, type FileResponse } from '../files/transfer';
import { formatCount } from '../format';
import { DataTable, type DataColumn } from './DataTable';
import { Note } from './Note';

/**
 * What every planning, validation and optimisation page shows of a run (DESIGN §7.4): the verdict
 * counts and the first rows of its main result, then its history with the workbook of each run.
 */

const TONE_COLOURS = { ok: 'success', warning: 'warning', error: 'error', info: 'default' } as const;

type PreviewRow = Record<string, string | number | null> & { __row: string };

/** A run's answer: its message, the verdict counts as coloured tags, the first rows, and its workbook. */
export function RunResultCard({ result, title = 'Result' }: { result: RunResponse; title?: string }) {
  const { summary, preview } = result;
  const rows: PreviewRow[] = preview.rows.map((row, index) => ({ ...row, __row: String(index) }));
  const columns: Array<DataColumn<PreviewRow>> = preview.columns.map((c) => ({ key: c.key, title: c.label }));
  return (
    <Card title={title} size="small" data-testid="run-result" extra={result.file ? <DownloadAgain file={result.file} /> : null}>
      <Flex vertical gap={12}>
        {result.message && <span style={{ wordBreak: 'break-word' }}>{result.message}</span>}
        {summary.length > 0 && (
          <Flex gap={8} wrap aria-label="Verdicts">
            {summary.map((item) => (
              <Tag key={item.label} color={TONE_COLOURS[item.tone]} style={{ fontSize: 14, paddingBlock: 2 }}>
                {item.label}: {formatCount(item.count)}
              </Tag>
            ))}
          </Flex>
        )}
        {preview.total > 0 && (
          <>
            <Note>
              {preview.title}:{' '}
              {preview.total <= preview.rows.length
                ? `${preview.total} rows`
                : `first ${preview.rows.length} of ${formatCount(preview.total)} rows (all of them in the workbook)`}
            </Note>
            <DataTable columns={columns} rows={rows} rowKey="__row" />
          </>
        )}
      </Flex>
    </Card>
  );
}

function DownloadAgain({ file }: { file: string }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadExport(file);
    } catch {
      // The API client has said why.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="small" icon={<DownloadOutlined />} loading={busy} onClick={() => void download()}>
      Download workbook
    </Button>
  );
}

/** Downloads a past run's workbook through its export route (e.g. 'Validation/GetCpichValidationExport', param 'cpichValidationId'). */
function HistoryDownload({ row, exportPath, idParam }: { row: RunHistoryRow; exportPath: string; idParam: string }) {
  const [busy, setBusy] = useState(false);
  if (!row.hasFile) return <Note>{row.message ?? 'No workbook'}</Note>;
  const download = async () => {
    setBusy(true);
    try {
      const { data } = await api.get<FileResponse>(exportPath, { params: { [idParam]: row.id } });
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
