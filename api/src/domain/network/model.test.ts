import { NetworkOptionError } from './errors';
import { assertCoordinateEncoding, bandOf, type CellTech, decodeCoordinates, emptyCounts, encodeCoordinates, formatPlmn, RELATION_KINDS } from './model';

describe('bandOf', () => {
  it.each<[CellTech, number, string | null]>([
    ['4G', 6200, 'L800'],
    ['4G', 6449, 'L800'],
    ['4G', 6300, 'L800'],
    ['4G', 1850, 'L1800'],
    ['4G', 1200, 'L1800'],
    ['4G', 1949, 'L1800'],
    ['4G', 100, 'L2100'],
    ['4G', 0, 'L2100'],
    ['4G', 599, 'L2100'],
    ['4G', 9360, 'L700'],
    ['4G', 9210, 'L700'],
    ['4G', 9659, 'L700'],
    ['4G', 38000, 'L2600TDD'],
    ['4G', 900, null],
    ['NB-IoT', 6290, 'L800'],
    ['3G', 10612, 'U2100'],
    ['3G', 10562, 'U2100'],
    ['3G', 10838, 'U2100'],
    ['3G', 3011, 'U900'],
    ['3G', 2937, 'U900'],
    ['3G', 3088, 'U900'],
    ['3G', 6300, null],
    ['5G', 636666, 'n78'],
    ['5G', 643334, 'n78'],
    ['5G', 620000, 'n78'],
    ['5G', 653333, 'n78'],
    ['5G', 653334, null],
    ['2G', 1, 'G900'],
    ['2G', 124, 'G900'],
    ['2G', 512, 'G1800'],
    ['2G', 885, 'G1800'],
    ['2G', 886, null],
  ])('%s channel %d → %s', (tech, channel, band) => {
    expect(bandOf(tech, channel)).toBe(band);
  });

  it('has no band without a channel', () => {
    expect(bandOf('4G', null)).toBeNull();
  });
});

describe('coordinates', () => {
  it('decodes microdegrees, degrees and the 3GPP encoding', () => {
    expect(decodeCoordinates('microdegrees', 38710500, -9142100, null)).toEqual({ lat: 38.7105, lon: -9.1421 });
    expect(decodeCoordinates('degrees', 38.7105, -9.1421, null)).toEqual({ lat: 38.7105, lon: -9.1421 });
    const lisbon = decodeCoordinates('3gpp', 3605144, -426840, 'NORTH');
    expect(lisbon?.lat).toBeCloseTo(38.679, 4);
    expect(lisbon?.lon).toBeCloseTo(-9.159, 4);
    expect(decodeCoordinates('3gpp', 823789, 616768, 'SOUTH')?.lat).toBeCloseTo(-8.8383, 4);
    expect(decodeCoordinates('3gpp', 823789, 616768, '1')?.lat).toBeLessThan(0);
    // Without a sign attribute the raw latitude carries the sign itself.
    expect(decodeCoordinates('3gpp', -823789, 616768, null)?.lat).toBeCloseTo(-8.8383, 4);
  });

  it('refuses values outside the globe', () => {
    expect(decodeCoordinates('degrees', 38710500, -9142100, null)).toBeNull();
    expect(decodeCoordinates('microdegrees', 38710500, -190000000, null)).toBeNull();
  });

  it.each(['microdegrees', '3gpp', 'degrees'] as const)('round-trips %s within its precision', (enc) => {
    for (const [lat, lon] of [
      [38.7223, -9.1393],
      [-33.9249, 18.4241],
      [0.0001, -179.9999],
    ] as const) {
      const e = encodeCoordinates(enc, lat, lon);
      const d = decodeCoordinates(enc, Number(e.latitude), Number(e.longitude), e.latitudeSign ?? null);
      expect(Math.abs((d?.lat ?? 99) - lat)).toBeLessThan(2e-5);
      expect(Math.abs((d?.lon ?? 999) - lon)).toBeLessThan(3e-5);
    }
  });

  it('rejects an unknown encoding name', () => {
    expect(assertCoordinateEncoding('3gpp')).toBe('3gpp');
    expect(() => assertCoordinateEncoding('wgs84')).toThrow(NetworkOptionError);
    expect(() => assertCoordinateEncoding(undefined)).toThrow(/unknown coordinate encoding undefined/);
  });
});

describe('formatPlmn', () => {
  it('pads the MNC to its length', () => {
    expect(formatPlmn('268', '1', 2)).toBe('268-01');
    expect(formatPlmn('268', '03', null)).toBe('268-03');
    expect(formatPlmn('310', '26', 3)).toBe('310-026');
    expect(formatPlmn('268', '6')).toBe('268-06');
  });
});

describe('emptyCounts', () => {
  it('has every relation kind at zero', () => {
    const c = emptyCounts();
    expect(Object.keys(c.relations)).toHaveLength(16);
    expect(RELATION_KINDS).toContain('LTE-NR');
    expect(Object.values(c.relations).every((v) => v === 0)).toBe(true);
    expect(c.cells).toEqual({ '2G': 0, '3G': 0, '4G': 0, '5G': 0, 'NB-IoT': 0 });
  });
});
