import { WORKBOOK_LIMITS, type WorkbookLimits } from './limits';
import { ARCHIVE_MESSAGES, entryContent, formatCount, isUnsafeEntryName, readZipFile, shownName, zipLayout, type DirectoryEntry, type ZipEntry } from './zip';

/**
 * A bounded pre-pass over an .xlsx before any workbook reader sees it (docs/architecture.md#files-and-archives). exceljs reads whole
 * shared-string tables and whole texts into memory and walks every row it is given, so a small file that
 * inflates to a million rows or one string of hundreds of MB stalls the API. Here every part is
 * inflated once, counting the real bytes (never the sizes the zip declares), and the XML of the parts
 * exceljs parses is scanned for rows, cells and text lengths, stopping at the first limit crossed.
 */

export const NOT_A_WORKBOOK = 'The file could not be read as an Excel workbook (.xlsx).';

/** A workbook that breaks a limit or is not a workbook: 400 with the message; nothing was read into the database. */
export class WorkbookBoundsError extends Error {
  override readonly name = 'WorkbookBoundsError';
  readonly statusCode = 400;
}

const n = formatCount;
export const WORKBOOK_MESSAGES = {
  rows: (s: string, limit: number) => `${s} has more than ${n(limit)} rows; the limit is ${n(limit)}.`,
  cells: (s: string, limit: number) => `${s} has more than ${n(limit)} cells; the limit is ${n(limit)}.`,
  rowWidth: (s: string, row: number, limit: number) => `Row ${n(row)} of ${s.toLowerCase()} is wider than ${n(limit)} columns; the limit is ${n(limit)}.`,
  text: (s: string, limit: number) => `${s} holds a text longer than ${n(limit)} bytes; the limit is ${n(limit)} (Excel's own is 32,767 characters).`,
  sharedStrings: (s: string, limit: number) => `${s} has more than ${n(limit)} shared strings; the limit is ${n(limit)}.`,
  sharedStringBytes: (s: string, limit: number) => `The shared strings of ${s.toLowerCase()} take more than ${n(limit)} bytes; the limit is ${n(limit)}.`,
  part: (s: string, part: string, limit: number) =>
    `The part ${shownName(part)} of ${s.toLowerCase()} inflates to more than ${n(limit)} bytes; the limit is ${n(limit)}.`,
  inflated: (s: string, limit: number) => `${s} inflates to more than ${n(limit)} bytes; the limit is ${n(limit)}.`,
  parts: (s: string, limit: number) => `${s} has more than ${n(limit)} parts; the limit is ${n(limit)}.`,
  ratio: (s: string, part: string, limit: number) =>
    `The part ${shownName(part)} of ${s.toLowerCase()} is compressed more than ${n(limit)} to 1, as zip bombs are; the limit is ${n(limit)} to 1.`,
} as const;

const SUBJECT = 'The workbook';
/** Parts under this size are never judged by their ratio: tiny XML compresses very well and costs nothing. */
const RATIO_FLOOR_BYTES = 1024 * 1024;

// Which parts exceljs' streaming reader parses, matched as it matches them (its sheet pattern is unanchored).
const SHEET_PART = /xl\/worksheets\/sheet\d+[.]xml/;
const SHARED_STRINGS_PART = 'xl/sharedStrings.xml';
const OTHER_PARSED_PARTS = new Set(['xl/workbook.xml', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml']);
const SHEET_RELS_PART = /xl\/worksheets\/_rels\/sheet\d+[.]xml.rels/;

type PartKind = 'sheet' | 'sharedStrings' | 'parsed' | 'opaque';

function partKind(name: string): PartKind {
  if (name === SHARED_STRINGS_PART) return 'sharedStrings';
  if (OTHER_PARSED_PARTS.has(name)) return 'parsed';
  if (SHEET_PART.test(name)) return 'sheet';
  return SHEET_RELS_PART.test(name) ? 'parsed' : 'opaque';
}

function partLimit(kind: PartKind, limits: WorkbookLimits): number {
  if (kind === 'sheet') return limits.maxInflatedBytes;
  return kind === 'sharedStrings' ? limits.maxSharedStringBytes : limits.maxPartBytes;
}

function partProblem(entry: DirectoryEntry, bytes: number, subject: string, limits: WorkbookLimits): string | null {
  const kind = partKind(entry.name);
  const limit = partLimit(kind, limits);
  if (bytes <= limit) return null;
  if (kind === 'sharedStrings') return WORKBOOK_MESSAGES.sharedStringBytes(subject, limit);
  return kind === 'sheet' ? WORKBOOK_MESSAGES.inflated(subject, limit) : WORKBOOK_MESSAGES.part(subject, entry.name, limit);
}

/**
 * The cheap first look, from the directory alone (at upload, and before inflating anything): part count,
 * part names, declared sizes and ratios. A zip that understates its sizes passes here and is stopped while inflating.
 */
export function workbookDirectoryProblem(entries: readonly DirectoryEntry[], subject = SUBJECT, limits: WorkbookLimits = WORKBOOK_LIMITS): string | null {
  if (entries.length > limits.maxParts) return WORKBOOK_MESSAGES.parts(subject, limits.maxParts);
  let declared = 0;
  for (const entry of entries) {
    // exceljs never writes a part to disk by its name, but whatever reads the parts next might.
    if (isUnsafeEntryName(entry.name)) return ARCHIVE_MESSAGES.unsafeName(subject, entry.name);
    if (entry.size > RATIO_FLOOR_BYTES && entry.size > entry.compressedSize * limits.maxRatio)
      return WORKBOOK_MESSAGES.ratio(subject, entry.name, limits.maxRatio);
    const problem = partProblem(entry, entry.size, subject, limits);
    if (problem) return problem;
    declared += entry.size;
    if (declared > limits.maxInflatedBytes) return WORKBOOK_MESSAGES.inflated(subject, limits.maxInflatedBytes);
  }
  return null;
}

/** What the pre-pass learnt on the way: the row count of each sheet part, by part name (for progress: "row 40,000 / 100,000"). */
export interface WorkbookShape {
  sheetRows: Map<string, number>;
}

/**
 * Checks a workbook file against the limits; resolves when exceljs may read it, throws WorkbookBoundsError
 * otherwise (NOT_A_WORKBOOK when it is no zip a streaming reader would read as the directory says).
 */
export async function checkWorkbookBounds(file: string, limits: WorkbookLimits = WORKBOOK_LIMITS): Promise<WorkbookShape> {
  const check = await WorkbookCheck.open(file, limits);
  const sheetRows = new Map<string, number>();
  for (const entry of check.parts) {
    const rows = await check.scan(entry);
    if (partKind(entry.name) === 'sheet') sheetRows.set(entry.name, rows);
  }
  return { sheetRows };
}

/**
 * The same checks, part by part, for a reader that inflates each part once: {@link WorkbookCheck.content}
 * hands over a part's bytes only after they were checked, so what the reader parses never crossed a
 * limit, however far it gets. Which error a file gets depends on the order its parts are checked in;
 * checkWorkbookBounds checks them in zip order and stops at the first problem, and a caller checking them
 * in another order must answer the problem of the earliest part to be as good as it. (The running byte
 * total does not make the order matter: no part inflates past its declared size, and the declared sizes
 * passed the same limits in open().)
 */
export class WorkbookCheck {
  private readonly totals = { inflated: 0, sharedStrings: 0 };

  private constructor(
    private readonly zip: Buffer,
    /** In file order. */
    readonly parts: readonly ZipEntry[],
    private readonly limits: WorkbookLimits,
  ) {}

  /** Reads the file and checks its directory (nothing is inflated yet). */
  static async open(file: string, limits: WorkbookLimits = WORKBOOK_LIMITS): Promise<WorkbookCheck> {
    const damaged = () => new WorkbookBoundsError(NOT_A_WORKBOOK);
    const zip = await readZipFile(file, damaged);
    const layout = zipLayout(zip, damaged);
    const problem = workbookDirectoryProblem(layout, SUBJECT, limits);
    if (problem) throw new WorkbookBoundsError(problem);
    return new WorkbookCheck(zip, layout, limits);
  }

  /** Whether exceljs parses the part as a worksheet (named as it matches them). */
  static isSheet(entry: ZipEntry): boolean {
    return partKind(entry.name) === 'sheet';
  }

  /** Checks a whole part; answers its row count (0 but for sheets). */
  async scan(entry: ZipEntry): Promise<number> {
    let rows = 0;
    for await (const chunk of this.content(entry, (count) => (rows = count))) void chunk;
    return rows;
  }

  /** A part's inflated bytes, each chunk checked before it is handed over; `onEnd` hears the part's row count once all of it passed. */
  async *content(entry: ZipEntry, onEnd?: (rows: number) => void): AsyncGenerator<Buffer> {
    const { limits, totals } = this;
    const kind = partKind(entry.name);
    const scanner = kind === 'opaque' ? null : new XmlScanner(kind, limits, totals);
    let bytes = 0;
    for await (const chunk of entryContent(this.zip, entry, () => new WorkbookBoundsError(NOT_A_WORKBOOK))) {
      bytes += chunk.length;
      totals.inflated += chunk.length;
      const problem = partProblem(entry, bytes, SUBJECT, limits);
      if (problem) throw new WorkbookBoundsError(problem);
      if (totals.inflated > limits.maxInflatedBytes) throw new WorkbookBoundsError(WORKBOOK_MESSAGES.inflated(SUBJECT, limits.maxInflatedBytes));
      scanner?.feed(chunk);
      yield chunk;
    }
    scanner?.end();
    onEnd?.(scanner?.rowCount ?? 0);
  }
}

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const EQUALS = 0x3d;
const AMPERSAND = 0x26;
const DOLLAR = 0x24;
const [LOWER_C, LOWER_F, LOWER_I, LOWER_O, LOWER_R, LOWER_S, LOWER_T, LOWER_V, LOWER_W] = [...'cfiorstvw'].map((c) => c.charCodeAt(0)) as [
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
];
const COMMENT_START = Buffer.from('!--');
const COMMENT_END = Buffer.from('-->');
const CDATA_START = Buffer.from('![CDATA[');
const CDATA_END = Buffer.from(']]>');
const PI_END = Buffer.from('?>');

const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
const endsName = (b: number) => isSpace(b) || b === SLASH || b === GT;

/**
 * A byte-level scan of one XML part, fed chunk by chunk. It mirrors what exceljs builds rather than
 * parsing XML: every element start is seen (a `<` outside quotes, comments and CDATA always starts one),
 * so rows and cells are never undercounted; text is counted the way exceljs concatenates it (in a sheet,
 * everything after a value starts; in shared strings, everything after a string or run starts), so no
 * one JS string grows past the limit. A construct cut by a chunk boundary is carried to the next chunk,
 * and no construct may be longer than a text may be. Hot loop: plain byte loops, no allocation per tag.
 */
class XmlScanner {
  private carry: Buffer | null = null;
  /** Text bytes exceljs would have concatenated into one string so far. */
  private text = 0;
  private rows = 0;
  private cells = 0;

  get rowCount(): number {
    return this.rows;
  }

  private rowNumber = 0;
  private rowCells = 0;

  constructor(
    private readonly kind: Exclude<PartKind, 'opaque'>,
    private readonly limits: WorkbookLimits,
    private readonly totals: { sharedStrings: number },
  ) {}

  feed(chunk: Buffer): void {
    const buf = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    this.carry = null;
    const length = buf.length;
    const maxText = this.limits.maxStringBytes;
    let i = 0;
    while (i < length) {
      let lt = i;
      while (lt < length && buf[lt] !== LT) lt += 1;
      this.text += lt - i;
      if (this.text > maxText) this.refuse(WORKBOOK_MESSAGES.text(SUBJECT, maxText));
      if (lt === length) return;
      const next = buf[lt + 1];
      const end = next === BANG || next === QUESTION || next === undefined ? this.specialEnd(buf, lt) : tagEnd(buf, lt);
      if (end < 0) {
        if (length - lt > maxText) this.refuse(WORKBOOK_MESSAGES.text(SUBJECT, maxText));
        this.carry = Buffer.from(buf.subarray(lt));
        return;
      }
      if (end - lt > maxText) this.refuse(WORKBOOK_MESSAGES.text(SUBJECT, maxText));
      if (next !== SLASH && next !== BANG && next !== QUESTION) this.startTag(buf, lt + 1, end - 1);
      i = end;
    }
  }

  /** Whatever is left unterminated is broken XML; exceljs refuses it, and it was bounded while carried. */
  end(): void {
    this.carry = null;
  }

  private refuse(message: string): never {
    throw new WorkbookBoundsError(message);
  }

  /** Comments, CDATA (whose content is text), processing instructions and declarations: the index after them, or -1. */
  private specialEnd(buf: Buffer, lt: number): number {
    if (buf[lt + 1] === QUESTION) return after(buf, lt + 2, PI_END);
    if (lt + 9 > buf.length) return -1;
    if (buf.subarray(lt + 1, lt + 4).equals(COMMENT_START)) return after(buf, lt + 4, COMMENT_END);
    if (buf.subarray(lt + 1, lt + 9).equals(CDATA_START)) {
      const end = after(buf, lt + 9, CDATA_END);
      if (end >= 0) {
        this.text += end - lt - CDATA_START.length - CDATA_END.length - 1;
        if (this.text > this.limits.maxStringBytes) this.refuse(WORKBOOK_MESSAGES.text(SUBJECT, this.limits.maxStringBytes));
      }
      return end;
    }
    return declarationEnd(buf, lt);
  }

  /** An element start: `start` is its name's first byte, `end` the closing `>`. */
  private startTag(buf: Buffer, start: number, end: number): void {
    let nameEnd = start;
    while (nameEnd < end && !endsName(buf[nameEnd]!)) nameEnd += 1;
    const length = nameEnd - start;
    const first = buf[start];
    if (this.kind === 'sheet') {
      if (length === 1) {
        if (first === LOWER_C) this.cell(buf, nameEnd, end);
        // exceljs starts a new value text at v, f, t and is (and only there).
        else if (first === LOWER_V || first === LOWER_F || first === LOWER_T) this.text = 0;
      } else if (length === 3 && first === LOWER_R && buf[start + 1] === LOWER_O && buf[start + 2] === LOWER_W) {
        this.row(buf, nameEnd, end);
      } else if (length === 2 && first === LOWER_I && buf[start + 1] === LOWER_S) {
        this.text = 0;
      }
    } else if (this.kind === 'sharedStrings') {
      const isString = length === 2 && first === LOWER_S && buf[start + 1] === LOWER_I;
      if (isString || (length === 1 && first === LOWER_R)) {
        this.totals.sharedStrings += 1;
        if (this.totals.sharedStrings > this.limits.maxSharedStrings) this.refuse(WORKBOOK_MESSAGES.sharedStrings(SUBJECT, this.limits.maxSharedStrings));
      }
      // exceljs starts a new string text at si and t.
      if (isString || (length === 1 && first === LOWER_T)) this.text = 0;
    } else {
      this.text = 0;
    }
  }

  private row(buf: Buffer, from: number, end: number): void {
    this.rows += 1;
    if (this.rows > this.limits.maxRows) this.refuse(WORKBOOK_MESSAGES.rows(SUBJECT, this.limits.maxRows));
    const number = Number.parseInt(referenceOf(buf, from, end) ?? '', 10);
    this.rowNumber = Number.isFinite(number) ? number : this.rows;
    this.rowCells = 0;
  }

  private cell(buf: Buffer, from: number, end: number): void {
    this.cells += 1;
    if (this.cells > this.limits.maxCells) this.refuse(WORKBOOK_MESSAGES.cells(SUBJECT, this.limits.maxCells));
    this.rowCells += 1;
    const width = Math.max(this.rowCells, cellColumn(buf, from, end));
    if (width > this.limits.maxCellsPerRow) this.refuse(WORKBOOK_MESSAGES.rowWidth(SUBJECT, this.rowNumber, this.limits.maxCellsPerRow));
  }
}

function after(buf: Buffer, from: number, terminator: Buffer): number {
  const at = buf.indexOf(terminator, from);
  return at < 0 ? -1 : at + terminator.length;
}

/** The index after the `>` ending a tag; a `>` inside a quoted attribute value does not end it. */
function tagEnd(buf: Buffer, lt: number): number {
  let quote = 0;
  for (let i = lt + 1; i < buf.length; i += 1) {
    const b = buf[i]!;
    if (quote !== 0) {
      if (b === quote) quote = 0;
    } else if (b === GT) {
      return i + 1;
    } else if (b === DOUBLE_QUOTE || b === SINGLE_QUOTE) {
      quote = b;
    }
  }
  return -1;
}

/** `<!DOCTYPE …>` and the like: ends at the first `>` (ending early only makes the scan see more elements, never fewer). */
function declarationEnd(buf: Buffer, lt: number): number {
  const at = buf.indexOf(GT, lt + 2);
  return at < 0 ? -1 : at + 1;
}

/**
 * The column of a cell tag's `r` attribute, as exceljs decodes it; 0 without one. The usual
 * `<c r="AB12"` is read straight from the bytes; anything else goes through the attribute walk.
 */
function cellColumn(buf: Buffer, from: number, end: number): number {
  if (isSpace(buf[from]!) && buf[from + 1] === LOWER_R && buf[from + 2] === EQUALS && buf[from + 3] === DOUBLE_QUOTE) {
    let column = 0;
    for (let i = from + 4; i < end; i += 1) {
      const c = buf[i]!;
      if (c >= 65 && c <= 90) column = column * 26 + c - 64;
      else if (c >= 48 && c <= 57) return column;
      else break;
    }
  }
  const reference = referenceOf(buf, from, end);
  return reference === null ? 0 : columnOf(reference);
}

/** The `r` attribute of a tag (attributes walked properly, so a quoted `r=` inside another value is not it), entities decoded. */
function referenceOf(buf: Buffer, from: number, end: number): string | null {
  let i = from;
  while (i < end) {
    while (i < end && isSpace(buf[i]!)) i += 1;
    const nameStart = i;
    while (i < end && buf[i] !== EQUALS && !isSpace(buf[i]!) && buf[i] !== SLASH) i += 1;
    const isR = i - nameStart === 1 && buf[nameStart] === LOWER_R;
    while (i < end && isSpace(buf[i]!)) i += 1;
    if (buf[i] !== EQUALS) {
      i += 1;
      continue;
    }
    i += 1;
    while (i < end && isSpace(buf[i]!)) i += 1;
    const quote = buf[i];
    if (quote !== DOUBLE_QUOTE && quote !== SINGLE_QUOTE) return null;
    const valueStart = i + 1;
    let valueEnd = valueStart;
    while (valueEnd < end && buf[valueEnd] !== quote) valueEnd += 1;
    if (isR) {
      const raw = buf.toString('latin1', valueStart, valueEnd);
      return buf.indexOf(AMPERSAND, valueStart) >= 0 && buf.indexOf(AMPERSAND, valueStart) < valueEnd ? decodeEntities(raw) : raw;
    }
    i = valueEnd + 1;
  }
  return null;
}

const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, body: string) => {
    if (body.startsWith('#x')) return String.fromCodePoint(Math.min(Number.parseInt(body.slice(2), 16), 0x10ffff));
    if (body.startsWith('#')) return String.fromCodePoint(Math.min(Number.parseInt(body.slice(1), 10), 0x10ffff));
    return NAMED_ENTITIES[body] ?? whole;
  });
}

/** The column of a cell reference as exceljs decodes it: capital letters before the first digit, `$` and strays skipped. */
export function columnOf(reference: string): number {
  let column = 0;
  let hasRow = false;
  for (let i = 0; i < reference.length; i += 1) {
    const c = reference.charCodeAt(i);
    if (!hasRow && c >= 65 && c <= 90) column = Math.min(column * 26 + c - 64, Number.MAX_SAFE_INTEGER / 32);
    else if (c >= 48 && c <= 57) hasRow = true;
    else if (hasRow && column > 0 && c !== DOLLAR) break;
  }
  return column;
}
