import { type BlockHeader, type TimeBasis } from './types';
import { tokens } from './text';

/**
 * The line moshell/AMOS prints under every prompt, before the command's output:
 *
 *     150819-06:05:01 10.128.163.8 10.0r MGW_NODE_MODEL_C_1_12 stopfile=/tmp/16315
 *     240430-15:40:33-0500 11.135.248.170 24.0c MSRBS_NODE_MODEL_23.Q4_643.28133.125_0bc9 stopfile=/tmp/2309857
 *
 * (formats checked against public moshell logs: older CPP/MGW nodes without a zone, ENM AMOS with one).
 */
const HEADER_RE = /^(\d\d)(\d\d)(\d\d)-(\d\d):(\d\d):(\d\d)([+-]\d{4})? +\S/;

/** Minutes east of UTC of `+hhmm` / `-hhmm`. */
export function zoneOffsetMinutes(zone: string): number {
  const sign = zone.startsWith('-') ? -1 : 1;
  const hh = Number(zone.slice(1, 3));
  const mm = Number(zone.slice(3, 5));
  return sign * (hh * 60 + mm);
}

/** The instant of a wall time at `offsetMinutes` east of UTC (null offset: read as UTC). Null when not a real date. */
export function wallTime(y: number, mo: number, d: number, h: number, mi: number, s: number, offsetMinutes: number | null): Date | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return null;
  // Date.UTC rolls 2024-02-31 over into March, and 23:59:60 into the next day: such a date is not what
  // was printed. Told by the calendar rather than by a second Date.
  if (d > daysInMonth(y, mo) || (h === 23 && mi === 59 && s === 60)) return null;
  return new Date(utcMs(y, mo, d, h, mi, s) - (offsetMinutes ?? 0) * 60_000);
}

/**
 * `Date.UTC(y, mo - 1, d, h, mi, s)` of a real date: counted (days of the proleptic Gregorian
 * calendar since 1970) rather than asked of the Date built-in, which costs several times more per row.
 * Outside the years and fields every table prints, Date.UTC itself answers.
 */
function utcMs(y: number, mo: number, d: number, h: number, mi: number, s: number): number {
  const year = y >= 0 && y <= 99 ? 1900 + y : y;
  if (!(year >= 100 && year <= 9999 && h >= 0 && mi >= 0 && s >= 0) || !Number.isInteger(year + mo + d + h + mi + s)) return Date.UTC(y, mo - 1, d, h, mi, s);
  // Days from civil (H. Hinnant): years start in March, so the leap day ends a year.
  const yy = mo <= 2 ? year - 1 : year;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * ((mo + 9) % 12) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  const days = era * 146_097 + doe - 719_468;
  return days * 86_400_000 + h * 3_600_000 + mi * 60_000 + s * 1000;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days of month `mo` (1–12) of year `y` as Date.UTC reads it (years 0–99 are 1900–1999). */
function daysInMonth(y: number, mo: number): number {
  if (mo !== 2) return DAYS_IN_MONTH[mo - 1]!;
  const year = y >= 0 && y <= 99 ? 1900 + y : y;
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
}

/** A table time read by {@link tableTime}. */
export interface TableTime {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
}

/** `YYYY-MM-DD HH:MM:SS` at the start of `text` (table rows); null when it is not there. */
export function tableTime(text: string): TableTime | null {
  return tableTimeAt(text, 0, text.length);
}

/** {@link tableTime} of the line `text[from, to)`. */
export function tableTimeAt(text: string, from: number, to: number): TableTime | null {
  if (to - from < 19) return null;
  // Separators first (one compare each), then the digits, read in place rather than cut and converted.
  if (
    text.charCodeAt(from + 4) !== 45 ||
    text.charCodeAt(from + 7) !== 45 ||
    text.charCodeAt(from + 10) !== 32 ||
    text.charCodeAt(from + 13) !== 58 ||
    text.charCodeAt(from + 16) !== 58
  ) {
    return null;
  }
  const century = digits2(text, from);
  const year = digits2(text, from + 2);
  const mo = digits2(text, from + 5);
  const d = digits2(text, from + 8);
  const h = digits2(text, from + 11);
  const mi = digits2(text, from + 14);
  const s = digits2(text, from + 17);
  // digits2 is negative for anything but two digits: one sign says whether all seven were.
  if ((century | year | mo | d | h | mi | s) < 0) return null;
  return { y: century * 100 + year, mo, d, h, mi, s };
}

/** The two digits at `at` as a number; negative when either is not a digit. */
function digits2(text: string, at: number): number {
  const a = text.charCodeAt(at) - 48;
  const b = text.charCodeAt(at + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/** The instant of a table time: UTC columns as UTC, Local columns at the block's zone or the default offset. */
export function tableInstant(time: string, basis: TimeBasis, header: BlockHeader | null, defaultOffset: number | null): Date | null {
  const t = tableTime(time);
  return t ? instantOf(t, basis, header, defaultOffset) : null;
}

/** {@link tableInstant} of a time already read by {@link tableTime}. */
export function instantOf(t: TableTime, basis: TimeBasis, header: BlockHeader | null, defaultOffset: number | null): Date | null {
  let offset: number | null = null;
  if (basis === 'Local') offset = header?.zone ? zoneOffsetMinutes(header.zone) : defaultOffset;
  return wallTime(t.y, t.mo, t.d, t.h, t.mi, t.s, offset);
}

/** Parses a block header line; null when the line is not one. */
export function parseHeaderLine(line: string, defaultOffset: number | null = null): BlockHeader | null {
  const m = HEADER_RE.exec(line);
  if (!m) return null;
  const [, yy, mo, dd, hh, mi, ss, zone] = m as unknown as [string, string, string, string, string, string, string, string | undefined];
  const rest = tokens(line.slice(m[0].length - 1));
  const ip = rest[0];
  if (!ip || ip.startsWith('stopfile=')) return null;
  let version: string | null = null;
  let model: string | null = null;
  let stopfile: string | null = null;
  for (const t of rest.slice(1)) {
    if (t.startsWith('stopfile=')) stopfile = t.slice('stopfile='.length);
    else if (version === null) version = t;
    else if (model === null) model = t;
  }
  const y = 2000 + Number(yy);
  const offset = zone ? zoneOffsetMinutes(zone) : defaultOffset;
  return {
    at: wallTime(y, Number(mo), Number(dd), Number(hh), Number(mi), Number(ss), offset),
    local: `${y}-${mo}-${dd} ${hh}:${mi}:${ss}`,
    zone: zone ?? null,
    ip,
    version,
    model,
    stopfile,
  };
}
