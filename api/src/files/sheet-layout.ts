import type { Worksheet } from 'exceljs';

/**
 * The layout every exported sheet shares (issue 47): the header row stays in view while scrolling, it
 * carries Excel's filter buttons, and each column is as wide as its header and contents, within bounds,
 * so a file opens readable without a user widening twenty columns by hand.
 */

/** Passed to `addWorksheet`: a streaming sheet writes its views when it is opened, so they cannot come later. */
export const FROZEN_HEADER_VIEWS = [{ state: 'frozen' as const, xSplit: 0, ySplit: 1, topLeftCell: 'A2', activeCell: 'A2' }];

/** Excel's column width is in characters of the default font; beyond this a cell is read in the formula bar. */
export const MAX_COLUMN_WIDTH = 60;
const MIN_COLUMN_WIDTH = 8;
/** dd-mm-yyyy hh:mm:ss and a margin. */
const DATE_WIDTH = 20;
/** Bold header text and the filter button take about this many characters beyond the text itself. */
const HEADER_EXTRA = 4;
const CELL_EXTRA = 2;

/** The width (in characters) a cell's value needs once written. */
function valueWidth(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (value instanceof Date) return DATE_WIDTH;
  // A multi-line text is as wide as its longest line.
  return (
    Math.max(
      ...String(value)
        .split('\n')
        .map((line) => line.length),
    ) + CELL_EXTRA
  );
}

/** Column widths for a header row and the rows under it (all of them, or a first sample of a streamed sheet). */
export function columnWidths(headers: readonly string[], rows: Iterable<readonly unknown[]>): number[] {
  const widths = headers.map((header) => header.length + HEADER_EXTRA);
  for (const row of rows) {
    for (let i = 0; i < widths.length; i++) widths[i] = Math.max(widths[i]!, valueWidth(row[i]));
  }
  return widths.map((w) => Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, Math.ceil(w))));
}

/** Sets the widths and the header row's filter; call before the first row is committed (columns are written with it). */
export function layOutSheet(sheet: Worksheet, widths: readonly number[]): void {
  widths.forEach((width, i) => {
    sheet.getColumn(i + 1).width = width;
  });
  if (widths.length > 0) sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: widths.length } };
}
