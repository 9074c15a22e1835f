import fs from 'node:fs';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { checkWorkbookBounds, NOT_A_WORKBOOK, WORKBOOK_LIMITS, WorkbookBoundsError, type WorkbookLimits } from '../files';
import { columnWidths, FROZEN_HEADER_VIEWS, layOutSheet } from '../files/sheet-layout';
import { WorkbookCheck } from '../files/workbook-bounds';
import type { ZipEntry } from '../files/zip';

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
 * The rows of the workbook's first sheet, a row at a time: {@link readFirstSheetBatches} flattened, so
 * the same single read of each part, checked against the limits as it goes. The row count
 * (`onRowCount`) is known only once the sheet was read; `onRead` hears the share of its bytes read.
 */
export async function* readFirstSheet(
  file: string,
  limits: WorkbookLimits = WORKBOOK_LIMITS,
  onRowCount?: (rows: number) => void,
  onRead?: (share: number) => void,
): AsyncGenerator<SheetRow> {
  for await (const batch of readFirstSheetBatches(file, limits, onRowCount, onRead)) yield* batch;
}

/**
 * The rows of the workbook's first sheet read by exceljs' own walk of the zip (its streaming reader: one
 * row in memory at a time, shared strings cached), after the whole file was checked against the limits
 * (rows, cells, texts, inflated bytes), because exceljs itself has none. Styles are read so that
 * date-formatted cells arrive as dates. Failures of either become WorkbookReadError; the file handle is
 * closed however the caller stops. Only for the files exceljs' walk must judge (see readFirstSheetBatches):
 * the walk (unzipper, and a temporary file when the sheet comes before the shared strings, as exceljs
 * itself writes them) now and then refuses a sound workbook as unreadable under load.
 */
export async function* readFirstSheetTwoPass(
  file: string,
  limits: WorkbookLimits = WORKBOOK_LIMITS,
  /** Told the first sheet's row count (counted by the limits' pre-pass) before the first row comes. */
  onRowCount?: (rows: number) => void,
): AsyncGenerator<SheetRow> {
  try {
    const { sheetRows } = await checkWorkbookBounds(file, limits);
    // Excel names the first sheet's part sheet1.xml; another writer's first part is at least a fair guess.
    onRowCount?.(sheetRows.get('xl/worksheets/sheet1.xml') ?? Math.max(0, ...sheetRows.values()));
  } catch (error) {
    throw readError(error);
  }
  const input = fs.createReadStream(file);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, READER_OPTIONS);
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
    for await (const batch of sheetBatches(first.value.parse())) yield* batch;
  } finally {
    input.destroy();
  }
}

const READER_OPTIONS = { worksheets: 'emit', sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'cache', entries: 'ignore' } as const;

function readError(error: unknown): unknown {
  return error instanceof WorkbookBoundsError ? new WorkbookReadError(error.message) : error;
}

type SheetEvents = AsyncIterator<Array<{ eventType: string; value: unknown }>>;

/** The rows of a worksheet reader's parsed pieces, a piece at a time; a parse failure is NOT_A_WORKBOOK. */
async function* sheetBatches(pieces: SheetEvents): AsyncGenerator<SheetRow[]> {
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
}

/**
 * The part of exceljs' WorkbookReader (4.4) that reads one zip entry at a time: its parse() walks the zip
 * with these. Not in its typings, so checked before use.
 */
interface EntryParsers {
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncIterable<unknown>;
  _parseWorksheet(iterator: AsyncIterable<Buffer>, sheetNo: string): Iterable<{ eventType: string; value: ExcelJS.stream.xlsx.WorksheetReader }>;
  sharedStrings?: unknown;
  workbookRels?: unknown;
}

const PARSERS: Record<string, (reader: EntryParsers, entry: Readable) => Promise<void>> = {
  'xl/_rels/workbook.xml.rels': (reader, entry) => reader._parseRels(entry),
  'xl/workbook.xml': (reader, entry) => reader._parseWorkbook(entry),
  'xl/styles.xml': (reader, entry) => reader._parseStyles(entry),
  'xl/sharedStrings.xml': async (reader, entry) => {
    for await (const event of reader._parseSharedStrings(entry)) void event;
  },
};

function entryParsers(reader: unknown): EntryParsers | null {
  const parsers = reader as Partial<Record<keyof EntryParsers, unknown>>;
  const names = ['_parseRels', '_parseWorkbook', '_parseStyles', '_parseSharedStrings', '_parseWorksheet'] as const;
  return names.every((name) => typeof parsers[name] === 'function') ? (reader as EntryParsers) : null;
}

/** exceljs parses 64 KiB at a time from its own reads; larger pieces keep a piece's rows alive long enough to leave the young generation. */
const PIECE_BYTES = 64 * 1024;

/**
 * The rows of the workbook's first sheet, a batch at a time: the rows exceljs parsed from one piece of
 * the sheet (never empty). An import of 100,000 rows takes these: one await per batch instead of two per row.
 *
 * Each part is inflated once: the limits' checks and exceljs read the same bytes, the checks a piece
 * ahead, so exceljs still never parses a byte past a limit. exceljs is handed the parts its own
 * parse() would have read before the first sheet, in the same order, and the same first sheet; only
 * the sheet is not copied to a temporary file first, as exceljs does when the sheet precedes the parts
 * it needs. A file that breaks a limit gets the message the pre-pass of readFirstSheetTwoPass gives it,
 * though possibly after rows came: a caller must not act on rows beyond what it can undo, and one that stops
 * early (breaks, not throws) still gets the refusal, since the rest of the sheet is checked then.
 * The row count is only known at the end (`onRowCount`, with the count the pre-pass would give); until
 * then `onRead` hears the share of the sheet's bytes read.
 */
export async function* readFirstSheetBatches(
  file: string,
  limits: WorkbookLimits = WORKBOOK_LIMITS,
  onRowCount?: (rows: number) => void,
  onRead?: (share: number) => void,
): AsyncGenerator<SheetRow[]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, READER_OPTIONS);
  const parsers = entryParsers(reader);
  if (!parsers) {
    yield* readCheckedBatches(file, limits, onRowCount);
    return;
  }
  let check: WorkbookCheck;
  try {
    check = await WorkbookCheck.open(file, limits);
  } catch (error) {
    throw readError(error);
  }
  const { parts } = check;
  // The first problem by position in the zip is the one checkWorkbookBounds would answer.
  const problems = new Map<number, unknown>();
  let parseFailed = false;
  let sheet = -1;
  const waiting: number[] = [];
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i]!;
    if (WorkbookCheck.isSheet(part)) {
      // exceljs reads a sheet as it comes once it has the shared strings and the relationships; one that
      // comes earlier waits in a temporary file until every other part was read.
      if (sheet < 0 && parsers.sharedStrings && parsers.workbookRels) sheet = i;
      else waiting.push(i);
      continue;
    }
    const parse = sheet < 0 && !parseFailed && problems.size === 0 ? PARSERS[part.name] : undefined;
    const outcome = parse
      ? await parsePart(check, part, (entry) => parse(parsers, entry))
      : { problem: await checked(check.content(part)), parseFailed: false };
    if (outcome.problem) problems.set(i, outcome.problem);
    else if (outcome.parseFailed) parseFailed = true;
  }
  if (sheet < 0) sheet = waiting.shift() ?? -1;
  const sheetRows = new Map<string, number>();
  for (const i of waiting) {
    try {
      sheetRows.set(parts[i]!.name, await check.scan(parts[i]!));
    } catch (error) {
      problems.set(i, error);
    }
  }
  const firstProblem = problems.size > 0 ? Math.min(...problems.keys()) : -1;
  const sheetProblem = async (): Promise<unknown> => {
    try {
      await check.scan(parts[sheet]!);
      return null;
    } catch (error) {
      return error;
    }
  };
  if (firstProblem >= 0) throw readError((firstProblem > sheet && sheet >= 0 && (await sheetProblem())) || problems.get(firstProblem));
  // exceljs' own walk notices a broken part only now and then (a broken styles part after the sheet
  // fails about one read in ten), so a file with one is read its way, checked twice, as before.
  if (parseFailed) {
    yield* readCheckedBatches(file, limits, onRowCount);
    return;
  }
  // The count readFirstSheetTwoPass reports, sheet1.xml's even when another sheet comes first.
  const reportRows = () => onRowCount?.(sheetRows.get('xl/worksheets/sheet1.xml') ?? Math.max(0, ...sheetRows.values()));
  if (sheet < 0) {
    reportRows();
    return;
  }

  const part = parts[sheet]!;
  const chunks = check.content(part, (rows) => sheetRows.set(part.name, rows));
  let handed = 0;
  // exceljs reports whatever its input throws as a parse failure; the limit crossed is the answer.
  let crossed: unknown = null;
  async function* pieces(): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of chunks) {
        for (let at = 0; at < chunk.length; at += PIECE_BYTES) yield chunk.subarray(at, at + PIECE_BYTES);
        handed += chunk.length;
        onRead?.(handed / Math.max(1, part.size));
      }
    } catch (error) {
      crossed = error;
      throw error;
    }
  }
  let done = false;
  try {
    let worksheet: ExcelJS.stream.xlsx.WorksheetReader | undefined;
    try {
      worksheet = [...parsers._parseWorksheet(pieces(), /sheet(\d+)[.]xml/.exec(part.name)?.[1] ?? '')][0]?.value;
    } catch {
      worksheet = undefined;
    }
    if (!worksheet) throw new WorkbookReadError(NOT_A_WORKBOOK);
    yield* sheetBatches(worksheet.parse());
    done = true;
  } catch (error) {
    done = true;
    // A limit crossed later in the sheet is the answer the pre-pass would have given.
    if (crossed) throw readError(crossed);
    if (error instanceof WorkbookReadError && error.message === NOT_A_WORKBOOK) throw readError((await rest()) || error);
    throw readError(error);
  } finally {
    // Only a caller's early stop gets here undone, and its refusal is meant to replace that stop: the
    // rest of the sheet is checked all the same.
    if (!done) {
      const problem = await rest();
      // eslint-disable-next-line no-unsafe-finally -- replaces the caller's return, nothing else
      if (problem) throw readError(problem);
    }
  }
  reportRows();

  async function rest(): Promise<unknown> {
    try {
      for await (const chunk of chunks) void chunk;
      return null;
    } catch (error) {
      return error;
    }
  }
}

/** Reads the rest of a part, for its checks; answers the problem found, if any. */
async function checked(content: AsyncIterator<Buffer>): Promise<unknown> {
  try {
    while (!(await content.next()).done);
    return null;
  } catch (error) {
    return error;
  }
}

/**
 * Hands exceljs a part while it is checked, streamed as exceljs would get it (a shared-string table may
 * take 100 MB). exceljs stops reading at the end of the root element; what follows is checked all the
 * same, so it is handed a wrapper, whose end does not end the part.
 */
async function parsePart(check: WorkbookCheck, part: ZipEntry, parse: (entry: Readable) => Promise<void>): Promise<{ problem: unknown; parseFailed: boolean }> {
  const content = check.content(part);
  let problem: unknown = null;
  async function* pieces(): AsyncGenerator<Buffer> {
    for (;;) {
      let next: IteratorResult<Buffer>;
      try {
        next = await content.next();
      } catch (error) {
        problem = error;
        throw error;
      }
      if (next.done) return;
      yield next.value;
    }
  }
  let parseFailed = false;
  try {
    await parse(Readable.from(pieces()));
  } catch {
    // exceljs reports whatever its input throws as its own failure; the limit crossed is the answer.
    parseFailed = problem === null;
  }
  return { problem: problem ?? (await checked(content)), parseFailed };
}

/** The two-pass reading of {@link readFirstSheetTwoPass}, a batch at a time: for files exceljs' own walk must judge, and an exceljs without the entry parsers. */
async function* readCheckedBatches(file: string, limits: WorkbookLimits, onRowCount?: (rows: number) => void): AsyncGenerator<SheetRow[]> {
  let batch: SheetRow[] = [];
  for await (const row of readFirstSheetTwoPass(file, limits, onRowCount)) {
    batch.push(row);
    if (batch.length === 1000) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
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

/** Rows an export holds back before writing, so its columns are sized to content rather than to the header alone. */
export const WIDTH_SAMPLE_ROWS = 500;

/**
 * A streaming workbook writer: one sheet, a bold header row that stays in view and carries the filter
 * buttons, dates in the tables' format, columns sized to the header and the first
 * {@link WIDTH_SAMPLE_ROWS} rows (docs/architecture.md#files-and-archives). Rows are flushed as they
 * are added once that sample is in. `dateColumns` are 0-based positions in `headers`.
 */
export function openSheetWriter(file: string, sheetName: string, headers: readonly string[], dateColumns: ReadonlySet<number>): SheetWriter {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31), { views: FROZEN_HEADER_VIEWS });
  sheet.columns = headers.map((header, i) => ({ header, key: String(i) }));
  sheet.getRow(1).font = { bold: true };
  const dateStyle = { numFmt: DATE_FORMAT };
  // The columns are written with the first committed row: until the sample is in, nothing is committed.
  let sample: SafeCell[][] | null = [];
  let pending: Array<ReturnType<typeof sheet.addRow>> = [];
  const flush = () => {
    if (sample) {
      layOutSheet(
        sheet,
        columnWidths(headers, sample).map((width, i) => (dateColumns.has(i) ? Math.max(width, 20) : width)),
      );
      sample = null;
      sheet.getRow(1).commit();
    }
    for (const row of pending) row.commit();
    pending = [];
  };
  return {
    addRow(values) {
      const cells = values.map(safeCell);
      const row = sheet.addRow(cells);
      for (const i of dateColumns) if (values[i] instanceof Date) row.getCell(i + 1).style = dateStyle;
      pending.push(row);
      if (sample) {
        sample.push(cells);
        if (sample.length < WIDTH_SAMPLE_ROWS) return;
      }
      flush();
    },
    async finish() {
      flush();
      sheet.commit();
      await workbook.commit();
    },
  };
}
