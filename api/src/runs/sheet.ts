/**
 * A run's result sheet as the engines produce it: what the workbook writer (index.ts) and the findings
 * reader (findings.ts) both take. Its own module so that neither of those has to import the other.
 */

/** A value a sheet cell may hold. */
export type RunCell = string | number | Date | null;

export interface RunSheet {
  name: string;
  columns: ReadonlyArray<{ key: string; label: string }>;
  rows: ReadonlyArray<Record<string, RunCell>>;
  /** The column holding each row's verdict; default the first of findings.ts VERDICT_KEYS the sheet has (null: none). */
  verdictKey?: string | null;
  /** One verdict for every row (e.g. an optimisation's 'Remove' candidates), instead of a column's. */
  verdict?: string;
}
