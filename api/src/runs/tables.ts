import type { TenantColumn } from '../db/operator-scope';
import type { Generated } from 'kysely';

/** Row types of the run history and the operators' frequency plans (migration 0010). */
export interface RunsTable {
  /** The operator the row belongs to (docs/tenancy.md): filled in and filtered by the operator scope. */
  operator_id: TenantColumn;
  id: Generated<number>;
  kind: string;
  user_id: number | null;
  user_name: string;
  sites: string;
  files: string;
  /** JSON of the run's parameters. */
  parameters: string;
  run_date: string;
  job_id: string | null;
  message: string | null;
  /** JSON RunSummaryItem[]. */
  summary: string;
  /** JSON RunPreview. */
  preview: string;
  stored_name: string | null;
  file_name: string | null;
  /** JSON RunSheetInfo[] (migration 0018): the result sheets whose rows are in run_findings. */
  sheets: string | null;
}

/** Every row of a run's result sheets (migration 0018), listed by the findings routes. */
export interface RunFindingsTable {
  operator_id: TenantColumn;
  run_id: number;
  /** The sheet's place in runs.sheets (0-based). */
  sheet: number;
  /** The row's place in its sheet (1-based). */
  row_no: number;
  /** Worst-first order: 0 ERROR … 6 OK, 7 no verdict (runs/findings.ts verdictRank). */
  rank: number;
  verdict: string | null;
  /** JSON { columnKey: value } (dates as ISO-8601 text). */
  data: string;
}

export interface FrequencyPlansTable {
  operator_id: number;
  nr_arfcn: number;
  nr_bandwidth_mhz: number;
  /** JSON { L700?: number, L800?: number, L1800?: number, L2100?: number } (EARFCN DL). */
  lte_carriers: string;
  updated_by: number | null;
  updated_at: string;
}

export interface RunTables {
  runs: RunsTable;
  run_findings: RunFindingsTable;
  frequency_plans: FrequencyPlansTable;
}
