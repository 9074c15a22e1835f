import dayjs from 'dayjs';

/** Every date in the console (specification §9). */
export const DATE_FORMAT = 'DD-MM-YYYY HH:mm:ss';

export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const d = dayjs(value);
  return d.isValid() ? d.format(DATE_FORMAT) : '';
}

// Written out rather than through Intl.NumberFormat: the first ICU number formatter a page makes loads
// the locale's data, 30-50 ms of one task in Chromium here (four times that on a throttled phone),
// and the first one was made inside the first render of every table page (its row count). The rule
// is en-GB's as V8 applies it: the shortest decimal that reads back as the number (what String()
// writes), rounded half away from zero to at most three decimals, thousands grouped by commas. From
// 1e21 up (exponent notation) Intl still does it, with a formatter made on first use: a cache, not
// page-wide state (a remote's own copy of this module making its own changes nothing).
const largeFormat = (() => {
  let made: Intl.NumberFormat | null = null;
  return () => (made ??= new Intl.NumberFormat('en-GB'));
})();

/** A count or measured value with thousands separators: 1,234,567. */
export function formatCount(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '-∞';
  const magnitude = Math.abs(value);
  if (magnitude >= 1e21) return largeFormat().format(value);
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  // Below 1e-6 String() writes an exponent; such a value is 0 to three decimals anyway.
  const [whole = '0', fraction = ''] = magnitude < 1e-6 ? ['0'] : String(magnitude).split('.');
  let digits = whole + fraction.slice(0, 3).padEnd(3, '0');
  if (fraction.charCodeAt(3) >= 53 /* '5' */) digits = (BigInt(digits) + 1n).toString().padStart(4, '0');
  const grouped = digits.slice(0, -3).replace(/\B(?=(\d{3})+$)/g, ',');
  const decimals = digits.slice(-3).replace(/0+$/, '');
  return `${sign}${grouped}${decimals === '' ? '' : `.${decimals}`}`;
}

/** A count and its noun, singular for one: '1 user', '2 users', '1,200 projects' (issue 47: '1 users'). `plural` for irregular nouns. */
export function countOf(count: number, noun: string, plural = `${noun}s`): string {
  return `${formatCount(count)} ${count === 1 ? noun : plural}`;
}

const SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];

/** Sizes in base 1024 with 2 decimals, Bytes up to YB (specification §9). */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), SIZE_UNITS.length - 1);
  const value = bytes / 1024 ** exponent;
  return `${parseFloat(value.toFixed(2))} ${SIZE_UNITS[exponent]}`;
}

/**
 * The upload limit, said the same way by every drop zone and picture card: the size in the console's
 * units (base 1024, as every size it shows) and the exact bound the server enforces, e.g.
 * 'Up to 9.54 MB (10,000,000 bytes)', with ' each' when several files may be sent.
 */
export function uploadLimitText(maxBytes: number, each = false): string {
  return `Up to ${formatSize(maxBytes)} (${formatCount(maxBytes)} bytes)${each ? ' each' : ''}`;
}

/** Short relative labels: 1m, 1h, 1d, 1Y (specification §2). */
export function formatRelative(value: string | number | Date, now: Date = new Date()): string {
  const seconds = Math.max(0, Math.floor((now.getTime() - new Date(value).getTime()) / 1000));
  const steps: Array<[number, string]> = [
    [365 * 24 * 3600, 'Y'],
    [30 * 24 * 3600, 'M'],
    [7 * 24 * 3600, 'w'],
    [24 * 3600, 'd'],
    [3600, 'h'],
    [60, 'm'],
  ];
  for (const [size, unit] of steps) {
    if (seconds >= size) return `${Math.floor(seconds / size)}${unit}`;
  }
  return 'now';
}

export function initials(...names: Array<string | null | undefined>): string {
  const parts = names
    .flatMap((n) => (n ?? '').split(/\s+/))
    .filter(Boolean)
    .map((p) => p[0]!.toUpperCase());
  if (parts.length === 0) return '?';
  return parts.length === 1 ? parts[0]! : `${parts[0]}${parts[parts.length - 1]}`;
}
