import { normalizeCell } from './values';

/** Header text compared without case and without any white space: 'Local Id', 'LOCALID' and 'localId' match. */
export function headerKey(text: string): string {
  return text.replace(/\s+/g, '').toLowerCase();
}

export interface HeaderMatch {
  /** Sheet column number (1-based) → field. Columns not listed are ignored. */
  columns: Map<number, string>;
  /** Fields with no column. */
  missing: string[];
  /** Fields named by more than one column: ambiguous, so refused. */
  duplicated: string[];
  /** Sheet column number → the header as written (for error workbooks and messages). */
  labels: Map<number, string>;
}

/**
 * Matches a header row (exceljs' 1-based sparse `row.values`, or any array of cells) to the fields. Extra
 * columns (e.g. an export's id and LastUpdate) are ignored, so an export re-imports.
 */
export function matchHeaders(cells: readonly unknown[], fields: readonly string[]): HeaderMatch {
  const wanted = new Map(fields.map((f) => [headerKey(f), f]));
  const columns = new Map<number, string>();
  const labels = new Map<number, string>();
  const seen = new Set<string>();
  const duplicated = new Set<string>();
  cells.forEach((cell, index) => {
    const value = normalizeCell(cell);
    if (value === null || typeof value === 'object') return;
    const label = String(value);
    labels.set(index, label);
    const field = wanted.get(headerKey(label));
    if (!field) return;
    if (seen.has(field)) duplicated.add(field);
    seen.add(field);
    columns.set(index, field);
  });
  return { columns, labels, missing: fields.filter((f) => !seen.has(f)), duplicated: [...duplicated] };
}

/** Why a header row cannot be imported, or null. */
export function headerProblem(match: HeaderMatch): string | null {
  if (match.columns.size === 0) return `The first row must name the columns (${[...match.missing].join(', ')}); none was found.`;
  if (match.missing.length > 0) return `Missing column${match.missing.length > 1 ? 's' : ''}: ${match.missing.join(', ')}.`;
  if (match.duplicated.length > 0) return `Column${match.duplicated.length > 1 ? 's' : ''} named twice: ${match.duplicated.join(', ')}.`;
  return null;
}
