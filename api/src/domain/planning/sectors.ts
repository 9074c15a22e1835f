import type { Cell } from '../network/model';
import { angleDiffDeg } from './geo';

export interface Sector {
  /** 1-based, in increasing azimuth from north. */
  number: number;
  /** Circular mean of the member cells' azimuths, rounded to a degree, 0–359. */
  azimuth: number;
  /** Names of the existing cells in this sector, sorted. */
  cells: string[];
}

const norm = (a: number): number => ((Math.round(a) % 360) + 360) % 360;

/**
 * The sectors of a site from its existing cells' azimuths: azimuths within `toleranceDeg` of the previous one
 * (walking round the circle from the widest gap) form one sector. Cells without an azimuth are ignored.
 */
export function deriveSectors(cells: readonly Pick<Cell, 'name' | 'azimuth'>[], toleranceDeg = 20): Sector[] {
  const withAz = cells.filter((c) => c.azimuth !== null).map((c) => ({ name: c.name, az: norm(c.azimuth as number) }));
  if (withAz.length === 0) return [];
  withAz.sort((a, b) => a.az - b.az || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // Start after the widest gap so that a sector around north is not split in two.
  let start = 0;
  let widest = -1;
  for (let i = 0; i < withAz.length; i++) {
    const cur = withAz[i] as { az: number };
    const prev = withAz[(i - 1 + withAz.length) % withAz.length] as { az: number };
    const gap = i === 0 ? cur.az + 360 - prev.az : cur.az - prev.az;
    if (gap > widest) {
      widest = gap;
      start = i;
    }
  }
  const walk = [...withAz.slice(start), ...withAz.slice(0, start)];
  const groups: { name: string; az: number }[][] = [];
  for (const c of walk) {
    const g = groups[groups.length - 1];
    const last = g?.[g.length - 1];
    if (g && last && angleDiffDeg(last.az, c.az) <= toleranceDeg) g.push(c);
    else groups.push([c]);
  }
  const sectors = groups.map((g) => {
    let x = 0;
    let y = 0;
    for (const c of g) {
      x += Math.cos((c.az * Math.PI) / 180);
      y += Math.sin((c.az * Math.PI) / 180);
    }
    const az = norm((Math.atan2(y, x) * 180) / Math.PI);
    return { azimuth: az, cells: g.map((c) => c.name).sort() };
  });
  sectors.sort((a, b) => a.azimuth - b.azimuth);
  return sectors.map((s, i) => ({ number: i + 1, ...s }));
}

/** The sector an azimuth belongs to (the nearest sector azimuth within the tolerance), or null. */
export function sectorOf(sectors: readonly Sector[], azimuth: number | null, toleranceDeg = 20): Sector | null {
  if (azimuth === null) return sectors.length === 1 ? (sectors[0] as Sector) : null;
  let best: Sector | null = null;
  let bestDiff = Infinity;
  for (const s of sectors) {
    const d = angleDiffDeg(s.azimuth, azimuth);
    if (d < bestDiff) {
      best = s;
      bestDiff = d;
    }
  }
  return bestDiff <= toleranceDeg ? best : null;
}
