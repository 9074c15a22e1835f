import { EyeOutlined } from '@ant-design/icons';
import { Button, Flex } from 'antd';
import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { RunHistoryRow } from 'contracts';
import { listFetcher } from '../api/listFetcher';
import { DataTable, type DataColumn } from './DataTable';
import { Note } from './Note';
import type { RunResultCardProps } from './RunResultCard';
import { RunWorkbookButton, type RunRoutes } from './RunWorkbookButton';

export type { RunRoutes };

/**
 * What every planning, validation and optimisation page shows of a run (docs/engines/planning.md#every-run, issue 46): the
 * run shown is the one the address names (`?run=<id>` on the page's path, so a notification or a
 * shared link opens it), set when a run ends or a history row is opened; its result (summary, every
 * finding worst first, the workbook on request); and the history of past runs.
 */

const LoadedRunResultCard = lazy(() => import('./RunResultCard').then((m) => ({ default: m.RunResultCardContent })));

/**
 * A run's result (see RunResultCardContent), loaded when a run is first shown: a page shows one only
 * after a run or when asked to, and its table and tags would otherwise come with the page's first load.
 */
export function RunResultCard(props: RunResultCardProps) {
  return (
    <Suspense fallback={null}>
      <LoadedRunResultCard {...props} />
    </Suspense>
  );
}

/** The run the page shows: `?run=<id>` of its address (null without one, or with one that is no run id), and how to show another. */
export function useShownRun(): [runId: number | null, show: (runId: number | null) => void] {
  const [search, setSearch] = useSearchParams();
  const text = search.get('run');
  const runId = text !== null && /^[1-9]\d{0,9}$/.test(text) ? Number(text) : null;
  const show = useCallback(
    (next: number | null) =>
      setSearch(
        (current) => {
          const params = new URLSearchParams(current);
          if (next === null) params.delete('run');
          else params.set('run', String(next));
          return params;
        },
        // Each run shown is a step back in the browser's history, as opening a page would be.
        { replace: false },
      ),
    [setSearch],
  );
  return [runId, show];
}

export interface RunHistoryTableProps {
  caption: string;
  /** The history call, e.g. 'Validation/GetCpichValidationHistory'. */
  historyPath: string;
  /** The run kind's findings and export calls and their id parameter, as the specification names them. */
  routes: RunRoutes;
  /** Which of the history's fields this page shows (specification §3), in order; `outcome` and the actions follow. */
  fields: ReadonlyArray<'user' | 'sites' | 'site' | 'files' | 'antenna' | 'lteBands'>;
  /** Opens a past run's result (a click or Enter on its row, or its Open button). */
  onOpen: (runId: number) => void;
  reloadKey?: number;
  emptyText?: ReactNode;
}

const FIELD_TITLES = { user: 'User', sites: 'Sites', site: 'Site', files: 'Files', antenna: 'Antenna', lteBands: 'LTE Bands' } as const;

/** A run history, paged on the server, newest first: each run opens again on the page, its workbook a click away. */
export function RunHistoryTable({ caption, historyPath, routes, fields, onOpen, reloadKey }: RunHistoryTableProps) {
  const [fetchPage] = useState(() => listFetcher<RunHistoryRow>(historyPath));
  const columns: Array<DataColumn<RunHistoryRow>> = [
    { key: 'id', title: 'Id', hidden: true },
    ...fields.map((key) => ({ key, title: FIELD_TITLES[key], wrap: key === 'sites' || key === 'files' })),
    { key: 'runDate', title: 'Run Date', kind: 'date' },
    { key: 'outcome', title: 'Outcome', wrap: true },
    {
      key: 'hasFile',
      title: 'Run',
      filter: false,
      sortable: false,
      render: (row) => (
        // The row's own click opens the run too; these buttons keep their clicks to themselves.
        <Flex gap={4} wrap onClick={(event) => event.stopPropagation()}>
          <Button size="small" icon={<EyeOutlined />} onClick={() => onOpen(row.id)} aria-label={`Open run ${row.id}`}>
            Open
          </Button>
          {row.hasFile ? (
            <RunWorkbookButton runId={row.id} routes={routes} label={`Download the workbook of run ${row.id}`}>
              Download
            </RunWorkbookButton>
          ) : (
            <Note>{row.message ?? 'No workbook'}</Note>
          )}
        </Flex>
      ),
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
      onRowClick={(row) => onOpen(row.id)}
      emptyText="No runs yet."
    />
  );
}
