/**
 * Cell values as read from a workbook, and the parsers that turn them into stored values. Pure.
 * Points in time are ISO-8601 UTC text at whole seconds (Excel keeps no more, so a round trip through
 * a workbook gives the same text back).
 */

/** What a cell holds once exceljs' shapes (rich text, formulas, hyperlinks) are flattened. */
export type CellValue = string | number | boolean | Date | null | { error: string };

/** A parser's answer: the value to store, or what is wrong (shown to the user next to row and column). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const bad = <T>(problem: string): Parsed<T> => ({ ok: false, problem });

/** Flattens an exceljs cell value. Unknown shapes become their text, never an exception. */
export function normalizeCell(value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    return trimmed === '' ? null : trimmed;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value;
  if (value instanceof Date) return value;
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.richText)) return normalizeCell(v.richText.map((r: unknown) => (r as { text?: unknown }).text ?? '').join(''));
    if ('formula' in v || 'sharedFormula' in v) return normalizeCell(v.result);
    if ('error' in v) return { error: String(v.error) };
    if ('text' in v) return normalizeCell(v.text);
    if ('hyperlink' in v) return normalizeCell(v.hyperlink);
  }
  return null;
}

/** A short rendering of a value for messages (never the whole of a long cell). */
export function describe(value: CellValue): string {
  if (value === null) return 'empty';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'an invalid date' : value.toISOString();
  if (typeof value === 'object') return value.error;
  const text = String(value);
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

export const MAX_TEXT_LENGTH = 1000;

export function parseText(value: CellValue): Parsed<string | null> {
  if (value === null) return ok(null);
  if (typeof value === 'object' && !(value instanceof Date)) return bad(`The cell holds an error (${value.error}).`);
  const text = value instanceof Date ? toIso(value) : String(value);
  if (text === null) return bad('The cell holds an invalid date.');
  if (text.length > MAX_TEXT_LENGTH) return bad(`Longer than ${MAX_TEXT_LENGTH} characters.`);
  return ok(text);
}

export function parseRequiredText(value: CellValue): Parsed<string> {
  const parsed = parseText(value);
  if (!parsed.ok) return parsed;
  return parsed.value === null ? bad('Required.') : ok(parsed.value);
}

/** ISO-8601 UTC at whole seconds, or null for an invalid date. */
export function toIso(date: Date): string | null {
  const ms = date.getTime();
  if (!Number.isFinite(ms)) return null;
  const rounded = new Date(Math.round(ms / 1000) * 1000);
  const year = rounded.getUTCFullYear();
  if (year < 1900 || year > 9999) return null;
  return rounded.toISOString().replace('.000Z', 'Z');
}

/** Excel serial day numbers (1900 system) of 1900-03-01 … 9999-12-31: earlier ones are Excel's leap-year bug. */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const MIN_SERIAL = 61;
const MAX_SERIAL = 2_958_465;

function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): Date | null {
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  // Date.UTC rolls 31-02 over into March: a date that moved was not a date.
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? date : null;
}

const DMY = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

const DATE_HINT = 'use DD-MM-YYYY HH:mm:ss, YYYY-MM-DD or an Excel date';

/**
 * A point in time from an Excel date, an Excel serial number, DD-MM-YYYY[ HH:mm[:ss]] (also with / or .)
 * or ISO-8601 text. Text without a zone is UTC, like Excel dates (which carry none).
 */
export function parseDate(value: CellValue): Parsed<string | null> {
  if (value === null) return ok(null);
  if (value instanceof Date) {
    const iso = toIso(value);
    return iso ? ok(iso) : bad('Not a valid date.');
  }
  if (typeof value === 'number') {
    if (value < MIN_SERIAL || value > MAX_SERIAL) return bad(`Not a date: ${value} (${DATE_HINT}).`);
    return ok(toIso(new Date(EXCEL_EPOCH_MS + Math.round(value * 86_400) * 1000))!);
  }
  if (typeof value !== 'string') return bad(`Not a date: ${describe(value)} (${DATE_HINT}).`);
  let date: Date | null = null;
  const dmy = DMY.exec(value);
  if (dmy) {
    const [, d, m, y, h, min, s] = dmy;
    date = utc(Number(y), Number(m), Number(d), Number(h ?? 0), Number(min ?? 0), Number(s ?? 0));
  } else {
    const iso = ISO.exec(value);
    if (iso) {
      const [, y, m, d, h, min, s, zone] = iso;
      const local = utc(Number(y), Number(m), Number(d), Number(h ?? 0), Number(min ?? 0), Number(s ?? 0));
      if (local && zone && zone !== 'Z') {
        const sign = zone.startsWith('-') ? -1 : 1;
        const digits = zone.slice(1).replace(':', '');
        const offset = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
        date = new Date(local.getTime() - offset * 60_000);
      } else date = local;
    }
  }
  const iso = date ? toIso(date) : null;
  return iso ? ok(iso) : bad(`Not a date: ${describe(value)} (${DATE_HINT}).`);
}

/** A week number 1–53: a number, or text '5', 'W05', '2024-W05' (the week number is kept). */
export function parseWeek(value: CellValue): Parsed<number | null> {
  if (value === null) return ok(null);
  let week: number | null = null;
  if (typeof value === 'number') week = value;
  else if (typeof value === 'string') {
    const match = /^(?:\d{4}-?W|W)?(\d{1,2})$/i.exec(value);
    if (match) week = Number(match[1]);
  }
  if (week === null || !Number.isInteger(week) || week < 1 || week > 53) return bad(`Not a week: ${describe(value)} (use 1–53 or YYYY-Www).`);
  return ok(week);
}

export function parseWholeNumber(value: CellValue): Parsed<number | null> {
  if (value === null) return ok(null);
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 0) return bad(`Not a whole number: ${describe(value)}.`);
  return ok(n);
}

/** One of the given texts, any case; answers the canonical spelling. */
export function parseChoice(choices: readonly string[]) {
  return (value: CellValue): Parsed<string | null> => {
    if (value === null) return ok(null);
    const text = typeof value === 'string' ? value.replace(/\s+/g, ' ').toLowerCase() : null;
    const found = choices.find((c) => c.toLowerCase() === text);
    return found ? ok(found) : bad(`Not one of ${choices.join(', ')}: ${describe(value)}.`);
  };
}

/** ISO-8601 week number (weeks start on Monday; week 1 holds the year's first Thursday). */
export function isoWeek(iso: string): number | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const weekday = day.getUTCDay() || 7;
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  return Math.ceil(((day.getTime() - yearStart) / 86_400_000 + 1) / 7);
}

/** Whole days from `from` to `to` (0 when `to` is earlier). */
export function daysBetween(fromIso: string, to: Date): number {
  const from = new Date(fromIso).getTime();
  if (Number.isNaN(from)) return 0;
  return Math.max(0, Math.floor((to.getTime() - from) / 86_400_000));
}
