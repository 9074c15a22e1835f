import { cell } from './__tests__/fixtures';
import { angleDiffDeg, bearingDeg, boundingBox, destination, haversineKm, inBox } from './geo';
import { placeCells } from './placed';

describe('geo', () => {
  it('haversine and bearing', () => {
    // One degree of longitude on the equator: 6371.0088 · π/180 = 111.1951 km.
    expect(haversineKm({ lat: 0, lon: 0 }, { lat: 0, lon: 1 })).toBeCloseTo(111.1951, 3);
    expect(bearingDeg({ lat: 0, lon: 0 }, { lat: 0, lon: 1 })).toBeCloseTo(90, 9);
    expect(bearingDeg({ lat: 0, lon: 0 }, { lat: -1, lon: 0 })).toBeCloseTo(180, 9);
    expect(angleDiffDeg(350, 10)).toBe(20);
    expect(angleDiffDeg(0, 180)).toBe(180);
  });

  it('the bounding box holds every point within the radius', () => {
    const c = { lat: 38.74, lon: -9.2 };
    const box = boundingBox(c, 5);
    for (let b = 0; b < 360; b += 15) {
      const p = destination(c, 4.999, b);
      expect(haversineKm(c, p)).toBeCloseTo(4.999, 6);
      expect(inBox(p, box)).toBe(true);
    }
    expect(inBox(destination(c, 5.2, 0), box)).toBe(false);
    expect(boundingBox({ lat: 89.99, lon: 0 }, 5)).toMatchObject({ minLon: -180, maxLon: 180 });
  });

  it('places cells on their sites, leaving out sites without coordinates', () => {
    const sites = [
      { id: 'A', name: 'A', lat: 1, lon: 2 },
      { id: 'B', name: 'B', lat: null, lon: null },
    ];
    const placed = placeCells(sites, [cell({ name: 'A1', siteId: 'A', tech: '5G', pci: 7 }), cell({ name: 'B1', siteId: 'B', tech: '5G' })]);
    expect(placed).toEqual([{ name: 'A1', siteId: 'A', tech: '5G', lat: 1, lon: 2, azimuth: null, channel: null, pci: 7, rachRootSequence: null }]);
  });
});
