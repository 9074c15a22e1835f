import dayjs from 'dayjs';

/** Every date in the console (specification §9). */
export const DATE_FORMAT = 'DD-MM-YYYY HH:mm:ss';

export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const d = dayjs(value);
  return d.isValid() ? d.format(DATE_FORMAT) : '';
}

// One formatter for the whole console: `toLocaleString` builds a new ICU formatter on every call, which
// showed as tens of milliseconds per table render on a throttled phone (Lighthouse). Made on first use:
// the first formatter loads the locale's data (17 ms on a desktop, four times that on a phone), which
// a module-level one made every page pay while the console started, counts shown or not. A cache, not
// page-wide state: a remote's own copy of this module making its own formatter changes nothing.
const countFormat = (() => {
  let made: Intl.NumberFormat | null = null;
  return () => (made ??= new Intl.NumberFormat('en-GB'));
})();

/** A count or measured value with thousands separators: 1,234,567. */
export function formatCount(value: number): string {
  return countFormat().format(value);
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
