import { DEFAULT_PRACH_SPACING, PRACH_ROOTS, type PrachFormat } from './constants';
import { PlanningError } from './errors';
import { boundingBox, haversineKm, inBox, type LatLon } from './geo';
import type { PlacedCell } from './placed';

/**
 * PRACH root sequence planning. A cell uses `rootsPerCell` consecutive logical root indices starting at its
 * rachRootSequence, wrapping cyclically (long formats L_RA = 839: 0–837; short formats L_RA = 139: 0–137).
 * A new cell's range must not overlap any neighbour's or co-site planned cell's range, and its first index
 * must be at least `minSpacing` (cyclic distance, docs/engines/planning.md#parameter-planning-5g-nr-en-dc: 10) from theirs. The lowest valid start wins.
 */

export interface PrachPlanOptions {
  format: PrachFormat;
  /** Root sequences each planned cell needs. */
  rootsPerCell: number;
  /** Root sequences each existing neighbour uses (default rootsPerCell). */
  neighbourRootsPerCell?: number;
  /** Minimum cyclic distance between first indices (default 10). */
  minSpacing?: number;
  /** Cells within this distance of the site are neighbours, km (default 2). */
  reuseDistanceKm?: number;
  /** Only cells on the same channel (or an unknown one) count (default true). */
  sameChannelOnly?: boolean;
}

export interface PrachPlanRequest {
  site: { id: string } & LatLon;
  cells: readonly { name: string; channel: number | null }[];
  network: readonly PlacedCell[];
  options: PrachPlanOptions;
}

export interface PrachAssignment {
  cell: string;
  /** rachRootSequence / prachRootSequenceIndex: the first logical root index. */
  rootSequence: number;
  /** Every logical root index the cell uses. */
  roots: number[];
}

interface Range {
  start: number;
  length: number;
  owner: string;
}

function cyclicDistance(a: number, b: number, n: number): number {
  const d = Math.abs(a - b) % n;
  return Math.min(d, n - d);
}

/** Whether two cyclic ranges [a, a+la) and [b, b+lb) modulo n share an index. */
export function rangesOverlap(a: number, la: number, b: number, lb: number, n: number): boolean {
  const da = (((b - a) % n) + n) % n; // b's offset from a
  const db = (((a - b) % n) + n) % n; // a's offset from b
  return da < la || db < lb;
}

export function planPrachRoots(req: PrachPlanRequest): PrachAssignment[] {
  const n = PRACH_ROOTS[req.options.format];
  const k = req.options.rootsPerCell;
  const kn = req.options.neighbourRootsPerCell ?? k;
  const spacing = req.options.minSpacing ?? DEFAULT_PRACH_SPACING;
  const reuseKm = req.options.reuseDistanceKm ?? 2;
  const sameChannelOnly = req.options.sameChannelOnly ?? true;
  if (!Number.isInteger(k) || k < 1 || k > n) throw new PlanningError(`rootsPerCell must be 1–${n} for ${req.options.format} PRACH formats, got ${k}`);
  const planned = new Set(req.cells.map((c) => c.name));
  const box = boundingBox(req.site, reuseKm);
  const near = req.network
    .filter((c) => !planned.has(c.name) && c.rachRootSequence !== null && inBox(c, box))
    .filter((c) => c.siteId === req.site.id || haversineKm(req.site, c) <= reuseKm)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  const out: PrachAssignment[] = [];
  const used: (Range & { channel: number | null })[] = near.map((c) => ({
    start: c.rachRootSequence as number,
    length: kn,
    owner: c.name,
    channel: c.channel,
  }));
  for (const cell of req.cells) {
    const relevant = used.filter((u) => !sameChannelOnly || cell.channel === null || u.channel === null || u.channel === cell.channel);
    let start = -1;
    for (let r = 0; r < n && start < 0; r++) {
      if (relevant.every((u) => !rangesOverlap(r, k, u.start, u.length, n) && cyclicDistance(r, u.start, n) >= spacing)) start = r;
    }
    if (start < 0) {
      throw new PlanningError(
        `no PRACH root sequence left for cell ${cell.name}: ${relevant.length} neighbour(s) within ${reuseKm} km use ${n} ${req.options.format}-format roots ` +
          `(${k} per cell, first indices at least ${spacing} apart)`,
      );
    }
    used.push({ start, length: k, owner: cell.name, channel: cell.channel });
    out.push({ cell: cell.name, rootSequence: start, roots: Array.from({ length: k }, (_, i) => (start + i) % n) });
  }
  return out;
}
