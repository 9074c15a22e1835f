import type { DataColumn } from 'shared-ui';

/** History rows of validation and optimisation runs (specification §3). */
export interface RunHistoryRow {
  id: number;
  user: string;
  sites: string;
  files: string;
  runDate: string;
}

export const runHistoryColumns: Array<DataColumn<RunHistoryRow>> = [
  { key: 'id', title: 'Id', hidden: true },
  { key: 'user', title: 'User' },
  { key: 'sites', title: 'Sites' },
  { key: 'files', title: 'Files' },
  { key: 'runDate', title: 'Run Date', kind: 'date' },
];

export const cpichHistoryColumns = runHistoryColumns.filter((c) => c.key !== 'files');
