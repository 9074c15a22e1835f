import { HO_HEADERS, hoHeaderKey, lastRdnValue, normaliseHoRecord, PlanningError, type HoStat } from '../domain/planning';
import { normalizeCell } from '../domain/tracking';
import { readFirstSheet } from '../tracking/workbook';

/**
 * Handover statistics workbooks (docs/engines/planning.md#neighbour-optimisation): the first sheet, one row per relation and period. The
 * header row is matched like the tracking imports (case, spaces, `_`, `-`, `.` ignored), and also by
 * Ericsson's names (pmHoExeAtt / pmHoExeSucc, EUtranCellFDD / EUtranCellRelation / neighborCellRef).
 * Bounds (rows, cells, text sizes, inflated bytes) are checked before exceljs reads a byte, through
 * the tracking imports' reader (tracking/workbook.ts).
 */

export type HoField = keyof HoStat;
export const REQUIRED_FIELDS: readonly HoField[] = ['source', 'target', 'attempts', 'successes'];
const FIELDS: readonly HoField[] = ['source', 'target', 'period', 'attempts', 'successes'];

/** What the template's header row says, and what a message names. */
export const FIELD_LABELS: Readonly<Record<HoField, string>> = {
  source: 'Source Cell',
  target: 'Target Cell',
  period: 'Period',
  attempts: 'Attempts',
  successes: 'Successes',
};
/** A few accepted names per field, for messages and the template's 'Read me'. */
export const FIELD_EXAMPLES: Readonly<Record<HoField, string>> = {
  source: 'Source, Source Cell, EUtranCellFDD, NRCellCU, UtranCell',
  target: 'Target, Target Cell, Neighbour, neighborCellRef, EUtranCellRelation',
  period: 'Period, Date, Day, Week, Time',
  attempts: 'Attempts, HO Attempts, pmHoExeAtt, pmHoPrepAtt',
  successes: 'Successes, HO Successes, pmHoExeSucc, pmHoPrepSucc',
};

/** A workbook that cannot be read as handover statistics: the route answers 400 with this message. */
export class HoWorkbookError extends Error {
  override readonly name = 'HoWorkbookError';
}

export interface HoHeaderMatch {
  /** Field → sheet column (1-based). */
  columns: Map<HoField, number>;
  missing: HoField[];
  /** Fields whose preferred header appears in more than one column. */
  duplicated: HoField[];
}

/** Which column holds each field: for each field the most preferred accepted name present wins. */
export function matchHoHeaders(cells: readonly unknown[]): HoHeaderMatch {
  const byKey = new Map<string, number[]>();
  cells.forEach((cell, index) => {
    const value = normalizeCell(cell);
    if (value === null || typeof value === 'object') return;
    const key = hoHeaderKey(String(value));
    byKey.set(key, [...(byKey.get(key) ?? []), index]);
  });
  const columns = new Map<HoField, number>();
  const duplicated: HoField[] = [];
  const taken = new Set<number>();
  for (const field of FIELDS) {
    for (const alias of HO_HEADERS[field]) {
      const found = (byKey.get(hoHeaderKey(alias)) ?? []).filter((c) => !taken.has(c));
      if (found.length === 0) continue;
      if (found.length > 1) duplicated.push(field);
      columns.set(field, found[0]!);
      taken.add(found[0]!);
      break;
    }
  }
  return { columns, missing: REQUIRED_FIELDS.filter((f) => !columns.has(f)), duplicated };
}

/** Why a header row cannot be read, naming the file and what it lacks, or null. */
export function hoHeaderProblem(fileName: string, match: HoHeaderMatch): string | null {
  if (match.missing.length > 0) {
    const names = match.missing.map((f) => `${FIELD_LABELS[f]} (${FIELD_EXAMPLES[f]})`).join('; ');
    return `File ${fileName} lacks the column${match.missing.length > 1 ? 's' : ''} ${names}.`;
  }
  if (match.duplicated.length > 0) {
    return `File ${fileName} names ${match.duplicated.map((f) => FIELD_LABELS[f]).join(', ')} in more than one column.`;
  }
  return null;
}

/** The Ericsson RDN classes that name a cell (a DN's cell is the last of them). */
const CELL_CLASS =
  /^(EUtranCell(FDD|TDD)|NbIotCell|NRCell(CU|DU)|UtranCell|GeranCell|ExternalEUtranCell(FDD|TDD)|ExternalNRCellCU|ExternalUtranCell(FDD)?|ExternalGeranCell)$/i;

/** A source written as a DN (`…,EUtranCellFDD=LX0001_1,EUtranCellRelation=…`) is its cell's name. */
export function sourceCellName(value: string): string {
  if (!value.includes('=')) return value;
  let name: string | null = null;
  for (const rdn of value.split(',')) {
    const eq = rdn.indexOf('=');
    if (eq > 0 && CELL_CLASS.test(rdn.slice(0, eq).trim())) name = rdn.slice(eq + 1).trim();
  }
  return name ?? lastRdnValue(value) ?? value;
}

/** A target written as a DN (neighborCellRef) is the value of its last RDN: the cell or external cell. */
export function targetCellName(value: string): string {
  return value.includes('=') ? (lastRdnValue(value)?.trim() ?? value) : value;
}

export interface HoFileRead {
  name: string;
  rows: number;
  stats: HoStat[];
}

/** Reads one statistics workbook; `onRows(read, share)` reports progress: rows read, and the share (0–1) of the sheet read. */
export async function readHoWorkbook(file: string, fileName: string, onRows: (read: number, share: number) => void = () => undefined): Promise<HoFileRead> {
  let match: HoHeaderMatch | null = null;
  let share = 0;
  let read = 0;
  const stats: HoStat[] = [];
  for await (const { number, cells } of readFirstSheet(file, undefined, undefined, (part) => (share = part))) {
    read += 1;
    if (read % 1000 === 0) onRows(read, share);
    const values = cells.map((c) => normalizeCell(c));
    if (values.every((v) => v === null || v === undefined)) continue;
    if (!match) {
      match = matchHoHeaders(cells);
      const problem = hoHeaderProblem(fileName, match);
      if (problem) throw new HoWorkbookError(problem);
      continue;
    }
    const record: Record<string, unknown> = {};
    for (const [field, column] of match.columns) {
      const value = values[column];
      record[field] = value !== null && typeof value === 'object' && !(value instanceof Date) ? value.error : (value ?? undefined);
    }
    try {
      const stat = normaliseHoRecord(record);
      stats.push({ ...stat, source: sourceCellName(stat.source), target: targetCellName(stat.target) });
    } catch (error) {
      if (error instanceof PlanningError) throw new HoWorkbookError(`File ${fileName}, row ${number}: ${rowProblem(record)}`);
      throw error;
    }
  }
  onRows(read, 1);
  if (!match) throw new HoWorkbookError(`File ${fileName} is empty: its first sheet has no header row.`);
  return { name: fileName, rows: stats.length, stats };
}

/** Why a row is refused, in words (the engine's own message carries the whole record). */
function rowProblem(record: Record<string, unknown>): string {
  const text = (v: unknown) => (v === undefined || v === null || v === '' ? 'empty' : String(v).slice(0, 40));
  for (const field of ['source', 'target'] as const) if (text(record[field]) === 'empty') return `${FIELD_LABELS[field]} is empty.`;
  const numbers = { attempts: Number.NaN, successes: Number.NaN };
  for (const field of ['attempts', 'successes'] as const) {
    const v = record[field];
    const n = typeof v === 'number' ? v : Number(String(v ?? '').trim());
    if (v === undefined || String(v).trim() === '' || !Number.isFinite(n) || n < 0) return `${FIELD_LABELS[field]} must be a number ≥ 0 (found ${text(v)}).`;
    numbers[field] = n;
  }
  if (numbers.successes > numbers.attempts) return `Successes (${numbers.successes}) exceed Attempts (${numbers.attempts}).`;
  return 'the row cannot be read.';
}
