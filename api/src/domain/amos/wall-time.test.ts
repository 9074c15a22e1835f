import { wallTime } from './header';

/** wallTime as it was first written: a second Date says whether Date.UTC rolled the date over. */
function reference(y: number, mo: number, d: number, h: number, mi: number, s: number, offset: number | null): Date | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return null;
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  if (new Date(ms).getUTCDate() !== d) return null;
  return new Date(ms - (offset ?? 0) * 60_000);
}

describe('wallTime', () => {
  it('refuses exactly the dates Date.UTC rolls over (month ends, leap years, years 0-99, a leap second at midnight)', () => {
    for (const y of [0, 4, 96, 99, 100, 1900, 2000, 2023, 2024, 2100, 2400, 9999]) {
      for (let mo = 1; mo <= 12; mo += 1) {
        for (const d of [1, 28, 29, 30, 31]) {
          for (const [h, mi, s] of [
            [0, 0, 0],
            [23, 59, 59],
            [23, 59, 60],
            [12, 59, 60],
          ] as const) {
            expect([y, mo, d, h, mi, s, wallTime(y, mo, d, h, mi, s, 90)]).toEqual([y, mo, d, h, mi, s, reference(y, mo, d, h, mi, s, 90)]);
          }
        }
      }
    }
  });
});
