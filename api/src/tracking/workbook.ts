import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { checkWorkbookBounds, NOT_A_WORKBOOK, WORKBOOK_LIMITS, WorkbookBoundsError, type WorkbookLimits } from '../files';

/** The file is not a workbook exceljs can read (corrupt zip, missing parts, not spreadsheet XML), or it breaks a limit. */
export class WorkbookReadError extends Error {
  override readonly name = 'WorkbookReadError';
  readonly statusCode = 400;
}

export { NOT_A_WORKBOOK };

export interface SheetRow {
  /** Sheet row number, 1-based. */
  number: number;
  /** exceljs' `row.values`: 1-based, sparse. */
  cells: unknown[];
}

/**
 * The rows of the workbook's first sheet, streamed (exceljs' streaming reader: one row in memory at a
 * time, shared strings cached). Styles are read so that date-formatted cells arrive as dates. Before
 * exceljs sees a byte, the whole file is checked against the limits (rows, cells, texts, inflated bytes),
 * because exceljs itself has none. Failures of either become WorkbookReadError; the file handle is
 * closed however the caller stops.
 */
export async function* readFirstSheet(
  file: string,
  limits: WorkbookLimits = WORKBOOK_LIMITS,
  /** Told the first sheet's row count (counted by the limits' pre-pass) before the first row comes. */
  onRowCount?: (rows: number) => void,
): AsyncGenerator<SheetRow> {
  for await (const batch of readFirstSheetBatches(file, limits, onRowCount)) yield* batch;
}

/**
 * {@link readFirstSheet} a batch at a time: the rows exceljs parsed from one piece of the sheet (never
 * empty). An import of 100,000 rows takes these: one await per batch instead of two per row.
 */
export async function* readFirstSheetBatches(
  file: string,
  limits: WorkbookLimits = WORKBOOK_LIMITS,
  onRowCount?: (rows: number) => void,
): AsyncGenerator<SheetRow[]> {
  try {
    const { sheetRows } = await checkWorkbookBounds(file, limits);
    // Excel names the first sheet's part sheet1.xml; another writer's first part is at least a fair guess.
    onRowCount?.(sheetRows.get('xl/worksheets/sheet1.xml') ?? Math.max(0, ...sheetRows.values()));
  } catch (error) {
    if (error instanceof WorkbookBoundsError) throw new WorkbookReadError(error.message);
    throw error;
  }
  const input = fs.createReadStream(file);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    entries: 'ignore',
  });
  try {
    let sheets: AsyncGenerator<ExcelJS.stream.xlsx.WorksheetReader>;
    try {
      sheets = reader[Symbol.asyncIterator]();
    } catch {
      throw new WorkbookReadError(NOT_A_WORKBOOK);
    }
    let first: IteratorResult<ExcelJS.stream.xlsx.WorksheetReader>;
    try {
      first = await sheets.next();
    } catch {
      throw new WorkbookReadError(NOT_A_WORKBOOK);
    }
    if (first.done) return;
    // The events exceljs' own row iterator reads, a parsed piece at a time; its rows are the 'row' events.
    const pieces = first.value.parse();
    for (;;) {
      let next: IteratorResult<Array<{ eventType: string; value: unknown }>>;
      try {
        next = await pieces.next();
      } catch {
        throw new WorkbookReadError(NOT_A_WORKBOOK);
      }
      if (next.done) return;
      const batch: SheetRow[] = [];
      for (const { eventType, value } of next.value) {
        if (eventType === 'row') {
          const row = value as ExcelJS.Row;
          batch.push({ number: row.number, cells: row.values as unknown[] });
        }
      }
      if (batch.length > 0) yield batch;
    }
  } finally {
    input.destroy();
  }
}

/** Cell values the writer accepts: never an object, so nothing a user typed can become a formula or a link. */
export type SafeCell = string | number | Date | null;

/**
 * Formula injection: a text value is always written as a text cell (exceljs only writes a formula for
 * a `{ formula }` object, which this type rules out), so '=HYPERLINK(…)' stays the characters a user
 * typed; Excel shows it, never evaluates it.
 */
export function safeCell(value: unknown): SafeCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return String(value);
}

export const DATE_FORMAT = 'dd-mm-yyyy hh:mm:ss';

export interface SheetWriter {
  addRow(values: readonly SafeCell[]): void;
  finish(): Promise<void>;
}

/**
 * A streaming workbook writer (rows are flushed as they are added): one sheet, a header row, dates in
 * the tables' format. `dateColumns` are 0-based positions in `headers`.
 */
export function openSheetWriter(file: string, sheetName: string, headers: readonly string[], dateColumns: ReadonlySet<number>): SheetWriter {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31));
  sheet.columns = headers.map((header, i) => ({ header, key: String(i), width: dateColumns.has(i) ? 20 : Math.max(12, Math.min(40, header.length + 4)) }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  const dateStyle = { numFmt: DATE_FORMAT };
  return {
    addRow(values) {
      const row = sheet.addRow(values.map(safeCell));
      for (const i of dateColumns) if (values[i] instanceof Date) row.getCell(i + 1).style = dateStyle;
      row.commit();
    },
    async finish() {
      sheet.commit();
      await workbook.commit();
    },
  };
}
