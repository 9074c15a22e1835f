import type { FieldSpec } from './fields';
import type { HeaderMatch } from './headers';
import { normalizeCell } from './values';

export interface RowProblem {
  /** Sheet row number (the header is row 1 in a usual sheet). */
  row: number;
  /** The column's header as written in the file. */
  column: string;
  problem: string;
}

export type RowResult<T> = { ok: true; value: T } | { ok: false; problems: RowProblem[] };

/** True when a row has no value in any column the import reads (blank rows are skipped, not refused). */
export function isBlankRow(cells: readonly unknown[], header: HeaderMatch): boolean {
  for (const column of header.columns.keys()) if (normalizeCell(cells[column]) !== null) return false;
  return true;
}

/** Validates one data row against the specs; every problem of the row is reported, not just the first. */
export function validateRow<T>(rowNumber: number, cells: readonly unknown[], header: HeaderMatch, specs: readonly FieldSpec[]): RowResult<T> {
  const bySpec = new Map(specs.map((s) => [s.field, s]));
  const value: Record<string, unknown> = {};
  const problems: RowProblem[] = [];
  for (const [column, field] of header.columns) {
    const spec = bySpec.get(field);
    if (!spec) continue;
    const parsed = spec.parse(normalizeCell(cells[column]));
    if (parsed.ok) value[field] = parsed.value;
    else problems.push({ row: rowNumber, column: header.labels.get(column) ?? field, problem: parsed.problem });
  }
  if (problems.length > 0) return { ok: false, problems };
  for (const spec of specs) if (!(spec.field in value)) value[spec.field] = null;
  return { ok: true, value: value as T };
}
