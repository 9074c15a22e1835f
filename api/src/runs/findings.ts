import type { RunSheetInfo } from 'contracts';
import type { RunCell, RunSheet } from './sheet';

/**
 * What a run keeps of its result sheets so the page can list every row (issue 46): each row's verdict
 * and its place in the worst-first order, and each sheet's description (columns and their kinds, row
 * count, verdict column, worst verdict). Pure: recordRun stores what this gives.
 */

/** Columns that hold a row's verdict, in the order they are looked for (validations, monitoring checks, planning problems, alarms). */
export const VERDICT_KEYS = ['verdict', 'status', 'level', 'severity'] as const;

/**
 * Rank of a verdict in the worst-first order (contracts VERDICT_ORDER): 0 ERROR (and NOK, Critical,
 * Major), 1 WARNING (and Minor), 2 MISSING (and MISSING_PLMN), 3 WRONG, 4 EXTRA, 5 any other verdict,
 * 6 OK, 7 none (blank, N/A).
 */
export function verdictRank(verdict: string | null): number {
  if (verdict === null) return 7;
  const v = verdict.trim().toUpperCase();
  if (v === '' || v === 'N/A') return 7;
  if (v === 'ERROR' || v === 'NOK' || v === 'CRITICAL' || v === 'MAJOR') return 0;
  if (v === 'WARNING' || v === 'MINOR') return 1;
  if (v === 'MISSING' || v.startsWith('MISSING_')) return 2;
  if (v === 'WRONG') return 3;
  if (v === 'EXTRA') return 4;
  if (v === 'OK') return 6;
  return 5;
}

/** The column holding a sheet's verdicts: the sheet's own choice, else the first of VERDICT_KEYS it has, else none. */
export function verdictKeyOf(sheet: Pick<RunSheet, 'columns' | 'verdictKey'>): string | null {
  if (sheet.verdictKey !== undefined) return sheet.verdictKey;
  return VERDICT_KEYS.find((key) => sheet.columns.some((c) => c.key === key)) ?? null;
}

/** A cell as the findings keep it: dates as ISO-8601 text, everything else as it is. */
export function storedValue(value: RunCell | undefined): string | number | null {
  if (value === undefined || value === null) return null;
  return value instanceof Date ? value.toISOString() : value;
}

function verdictText(value: RunCell | undefined): string | null {
  const stored = storedValue(value);
  return stored === null || stored === '' ? null : String(stored);
}

/** A row's verdict: the sheet's fixed verdict, else its verdict column's value. */
export function rowVerdict(sheet: RunSheet, row: RunSheet['rows'][number], key = verdictKeyOf(sheet)): string | null {
  if (sheet.verdict !== undefined) return sheet.verdict;
  return key === null ? null : verdictText(row[key]);
}

/** A column's kind: number or date when every value it holds is one (a blank fits any), else text. */
function kindOf(sheet: RunSheet, key: string): RunSheetInfo['columns'][number]['kind'] {
  let numbers = 0;
  let dates = 0;
  for (const row of sheet.rows) {
    const value = row[key];
    if (value === null || value === undefined) continue;
    if (typeof value === 'number' && Number.isFinite(value)) numbers += 1;
    else if (value instanceof Date) dates += 1;
    else return 'text';
    if (numbers > 0 && dates > 0) return 'text';
  }
  return numbers > 0 ? 'number' : dates > 0 ? 'date' : 'text';
}

/** The sheet's description for the page. */
export function sheetInfoOf(sheet: RunSheet): RunSheetInfo {
  const verdictKey = sheet.verdict !== undefined ? null : verdictKeyOf(sheet);
  let worst: string | null = null;
  let worstRank = Number.POSITIVE_INFINITY;
  for (const row of sheet.rows) {
    const verdict = rowVerdict(sheet, row, verdictKey);
    const rank = verdictRank(verdict);
    if (verdict !== null && rank < worstRank) {
      worst = verdict;
      worstRank = rank;
    }
  }
  return {
    name: sheet.name,
    columns: sheet.columns.map((c) => ({ key: c.key, label: c.label, kind: kindOf(sheet, c.key) })),
    total: sheet.rows.length,
    verdictKey,
    worst,
  };
}

/** Sheet names as the page tells them apart: a repeated name gets ' (2)', ' (3)'… */
export function distinctNames(names: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return n === 1 ? name : `${name} (${n})`;
  });
}
