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
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  return new Date(ms - (offsetMinutes ?? 0) * 60_000);
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
  if (text.length < 19) return null;
  for (let i = 0; i < 19; i += 1) {
    const c = text.charCodeAt(i);
    const digit = c >= 48 && c <= 57;
    if (i === 4 || i === 7) {
      if (c !== 45) return null;
    } else if (i === 10) {
      if (c !== 32) return null;
    } else if (i === 13 || i === 16) {
      if (c !== 58) return null;
    } else if (!digit) return null;
  }
  // Digits only (checked above): read in place rather than cut and converted six times.
  const d2 = (at: number): number => (text.charCodeAt(at) - 48) * 10 + (text.charCodeAt(at + 1) - 48);
  return { y: d2(0) * 100 + d2(2), mo: d2(5), d: d2(8), h: d2(11), mi: d2(14), s: d2(17) };
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
