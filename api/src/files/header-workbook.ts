import { headerKey } from '../domain/tracking/headers';
import { normalizeCell, type CellValue } from '../domain/tracking/values';
import { readFirstSheet, WorkbookReadError } from '../tracking/workbook';
import { WORKBOOK_LIMITS, type WorkbookLimits } from './limits';

/**
 * Reads the first sheet of an uploaded workbook whose columns are found by their header, matched like
 * the tracking imports (case and white space ignored; here also `_`, `-` and `.`, as exports from other
 * tools write them), each field with the other names real files use (e.g. Ericsson's EUtranCellFDD for a
 * source cell). Streams through the tracking reader, so the workbook limits (docs/architecture.md#files-and-archives) hold.
 */

export interface HeaderColumn {
  field: string;
  /** The name the template writes and messages use. */
  label: string;
  /** Other headers read as this field. */
  aliases?: readonly string[];
  required?: boolean;
}

export interface HeaderedRow {
  /** Sheet row number, 1-based (the header is usually row 1). */
  number: number;
  /** Each found field's cell, flattened (text trimmed, '' as null); fields without a column are absent. */
  values: Record<string, CellValue>;
}

export interface HeaderedSheet {
  rows: HeaderedRow[];
  /** Field → the header as written in the file. */
  headers: Record<string, string>;
}

/** A workbook that cannot be read, breaks a limit, or lacks a needed column: 400 with the message (which names the file). */
export class HeaderedWorkbookError extends Error {
  override readonly name = 'HeaderedWorkbookError';
  readonly statusCode = 400;
}

export const HEADER_MESSAGES = {
  missing: (file: string, labels: readonly string[]) =>
    `${file} has no ${labels.join(', ')} column${labels.length > 1 ? 's' : ''}: the first row must name ${labels.length > 1 ? 'them' : 'it'} (see the template).`,
  empty: (file: string) => `${file} is empty: its first sheet has no header row.`,
  unreadable: (file: string, reason: string) => `${file}: ${reason}`,
} as const;

export function headerMatchKey(text: string): string {
  return headerKey(text).replace(/[_\-.]/g, '');
}

/** All rows of the first sheet after its header row (the first row with any value); blank rows are skipped. */
export async function readHeaderedSheet(
  file: string,
  displayName: string,
  columns: readonly HeaderColumn[],
  limits: WorkbookLimits = WORKBOOK_LIMITS,
): Promise<HeaderedSheet> {
  const byKey = new Map<string, HeaderColumn>();
  for (const column of columns) {
    for (const name of [column.label, column.field, ...(column.aliases ?? [])]) {
      const key = headerMatchKey(name);
      if (!byKey.has(key)) byKey.set(key, column);
    }
  }
  let positions: Map<number, string> | null = null;
  const headers: Record<string, string> = {};
  const rows: HeaderedRow[] = [];
  try {
    for await (const row of readFirstSheet(file, limits)) {
      if (!positions) {
        const found = new Map<number, string>();
        row.cells.forEach((cell, index) => {
          const value = normalizeCell(cell);
          if (value === null || typeof value === 'object') return;
          const column = byKey.get(headerMatchKey(String(value)));
          // The first column naming a field wins: exports often carry the same thing twice (e.g. a name and an id).
          if (column && headers[column.field] === undefined) {
            headers[column.field] = String(value);
            found.set(index, column.field);
          }
        });
        if (found.size === 0 && row.cells.every((c) => normalizeCell(c) === null)) continue;
        const missing = columns.filter((c) => c.required && headers[c.field] === undefined).map((c) => c.label);
        if (missing.length > 0) throw new HeaderedWorkbookError(HEADER_MESSAGES.missing(displayName, missing));
        positions = found;
        continue;
      }
      const values: Record<string, CellValue> = {};
      let any = false;
      for (const [index, field] of positions) {
        const value = normalizeCell(row.cells[index]);
        values[field] = value;
        if (value !== null) any = true;
      }
      if (any) rows.push({ number: row.number, values });
    }
  } catch (error) {
    if (error instanceof WorkbookReadError) throw new HeaderedWorkbookError(HEADER_MESSAGES.unreadable(displayName, error.message));
    throw error;
  }
  if (!positions) throw new HeaderedWorkbookError(HEADER_MESSAGES.empty(displayName));
  return { rows, headers };
}

/** A cell as text for identifiers (a number typed as a cell name stays its digits), or null. */
export function cellText(value: CellValue | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return null;
  const text = String(value).trim();
  return text === '' ? null : text;
}

/** A cell as a whole number, or null when empty or not one. */
export function cellInteger(value: CellValue | undefined): number | null {
  if (value === null || value === undefined || typeof value === 'object' || typeof value === 'boolean') return null;
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  return Number.isInteger(n) ? n : null;
}
