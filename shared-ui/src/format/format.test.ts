import { countOf, formatCount, formatDate, formatRelative, formatSize, initials, uploadLimitText } from './index';

describe('formatters', () => {
  test('dates are DD-MM-YYYY HH:mm:ss; empty input gives empty text', () => {
    expect(formatDate('2026-03-04T05:06:07')).toBe('04-03-2026 05:06:07');
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('');
  });

  test('counts have thousands separators and keep up to three decimals, as toLocaleString did', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(-4200.5)).toBe('-4,200.5');
    expect(formatCount(3.14159)).toBe('3.142');
  });

  test('counts read exactly as en-GB Intl.NumberFormat writes them, rounding and edges included', () => {
    const intl = new Intl.NumberFormat('en-GB');
    const edges = [0, -0, 1, -1, 999, 1000, -1000, 0.0005, 0.0004, -0.0004, 1.0005, 2.5, 999999.9996, -999999.9996, 123456789.123456];
    const large = [2 ** 53, -(2 ** 53), 1e20, 1e21, -1e21, 1.5e300, Number.MAX_VALUE, Number.MIN_VALUE];
    const special = [NaN, Infinity, -Infinity];
    // A fixed sweep of magnitudes and fractions (no randomness: a failure names its value every run).
    const sweep = Array.from({ length: 400 }, (_, i) => (i % 2 ? -1 : 1) * ((i * 7919) % 1000003) * 10 ** ((i % 13) - 6));
    for (const value of [...edges, ...large, ...special, ...sweep]) expect([value, formatCount(value)]).toEqual([value, intl.format(value)]);
  });

  test('sizes are base 1024 with 2 decimals up to YB', () => {
    expect(formatSize(0)).toBe('0 Bytes');
    expect(formatSize(1023)).toBe('1023 Bytes');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(10_000_000)).toBe('9.54 MB');
    expect(formatSize(1024 ** 8 * 3)).toBe('3 YB');
    expect(formatSize(1024 ** 9)).toBe('1024 YB');
  });

  test('the upload limit reads the same everywhere: the size in the console units and the exact bound', () => {
    expect(uploadLimitText(10_000_000)).toBe('Up to 9.54 MB (10,000,000 bytes)');
    expect(uploadLimitText(10_000_000, true)).toBe('Up to 9.54 MB (10,000,000 bytes) each');
  });

  test('relative times are short', () => {
    const now = new Date('2026-01-10T12:00:00Z');
    expect(formatRelative('2026-01-10T11:59:00Z', now)).toBe('1m');
    expect(formatRelative('2026-01-10T11:00:00Z', now)).toBe('1h');
    expect(formatRelative('2026-01-09T12:00:00Z', now)).toBe('1d');
    expect(formatRelative('2025-01-10T12:00:00Z', now)).toBe('1Y');
    expect(formatRelative('2026-01-10T11:59:59Z', now)).toBe('now');
  });

  test('initials of a full name', () => {
    expect(initials('Ana', 'Silva')).toBe('AS');
    expect(initials('Vodafone PT')).toBe('VP');
    expect(initials('')).toBe('?');
  });
});

describe('countOf', () => {
  test('one is singular, any other count plural, with separators', () => {
    expect(countOf(1, 'user')).toBe('1 user');
    expect(countOf(0, 'project')).toBe('0 projects');
    expect(countOf(2, 'user')).toBe('2 users');
    expect(countOf(1200, 'project')).toBe('1,200 projects');
    expect(countOf(3, 'entry', 'entries')).toBe('3 entries');
  });
});
