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
  return rowValidator<T>(header, specs)(rowNumber, cells);
}

/** validateRow with the header's columns resolved once: what an import of 100,000 rows calls per row. */
export function rowValidator<T>(header: HeaderMatch, specs: readonly FieldSpec[]): (rowNumber: number, cells: readonly unknown[]) => RowResult<T> {
  const bySpec = new Map(specs.map((s) => [s.field, s]));
  const columns = [...header.columns].flatMap(([column, field]) => {
    const spec = bySpec.get(field);
    return spec ? [{ column, spec, label: header.labels.get(column) ?? field }] : [];
  });
  const unread = specs.filter((s) => !columns.some((c) => c.spec === s)).map((s) => s.field);
  return (rowNumber, cells) => {
    const value: Record<string, unknown> = {};
    let problems: RowProblem[] | null = null;
    for (const { column, spec, label } of columns) {
      const parsed = spec.parse(normalizeCell(cells[column]));
      if (parsed.ok) value[spec.field] = parsed.value;
      else (problems ??= []).push({ row: rowNumber, column: label, problem: parsed.problem });
    }
    if (problems) return { ok: false, problems };
    for (const field of unread) value[field] = null;
    return { ok: true, value: value as T };
  };
}
