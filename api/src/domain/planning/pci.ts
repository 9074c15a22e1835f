import { LTE_PCI_COUNT, NR_PCI_COUNT } from './constants';
import { PlanningError } from './errors';
import { angleDiffDeg, bearingDeg, boundingBox, haversineKm, inBox, type LatLon } from './geo';
import type { PlacedCell } from './placed';

/**
 * PCI planning for the cells of one site.
 *
 * NR: PCI = 3·N_ID1 + N_ID2, N_ID1 0–335, N_ID2 0–2 → 0–1007 (TS 38.211 §7.4.2.1).
 * LTE: PCI = 3·physicalLayerCellIdGroup + physicalLayerSubCellId, group 0–167, id 0–2 → 0–503 (TS 36.211 §6.11).
 *
 * Hard rules (a PCI breaking one is never returned; PlanningError when no PCI is left):
 * - collision: no co-channel cell within the reuse distance of the site has the PCI;
 * - confusion: no cell X near the site (within the neighbour distance: X will list the new cell as a neighbour)
 *   has another neighbour (a cell within the neighbour distance of X, or one of X's defined neighbours) with the PCI;
 *   X's own PCI is excluded too;
 * - co-site mod 30: co-channel cells of the site (planned and existing) have distinct PCI mod 30;
 * - co-site mod 3: co-channel cells of the site have distinct PCI mod 3 while there are at most 3 of them
 *   (with more, mod 3 cannot be distinct: it becomes a preference and a warning).
 * Preferences, in order: fewest mod-3 clashes with facing first-tier cells (the nearest ring of sites; cells
 * whose main lobes point at each other), then the largest distance to the nearest cell already using the
 * PCI, then (with ≤ 3 cells) one N_ID1 group for the site, then the lowest PCI. Inputs are sorted first, so
 * the answer does not depend on the order of the network list.
 */

export type PciTech = 'NR' | 'LTE';

export interface PciPlanOptions {
  /** Collision radius around the site, km (default 5). */
  reuseDistanceKm?: number;
  /** Two cells closer than this are neighbours (for confusion), km (default 2). */
  neighbourDistanceKm?: number;
  /** Sites within firstTierFactor × the nearest site's distance form the first tier (default 1.5). */
  firstTierFactor?: number;
  /** Two cells face each other when each one's azimuth is within ±halfBeamDeg (exclusive) of the bearing to the other (default 60). */
  halfBeamDeg?: number;
  /** 'avoid' (default): first-tier mod-3 clashes are minimised and reported; 'strict': they are not allowed. */
  firstTierMod3?: 'avoid' | 'strict';
  /** Only cells on the same channel (or an unknown one) count (default true). */
  sameChannelOnly?: boolean;
  /** With ≤ 3 cells, prefer PCIs of one N_ID1 group (default true). */
  sameGroup?: boolean;
  /** PCIs never to assign. */
  reserved?: readonly number[];
}

export interface PciPlanCell {
  name: string;
  azimuth: number | null;
  channel: number | null;
}

export interface PciPlanRequest {
  tech: PciTech;
  site: { id: string } & LatLon;
  /** Cells to plan, in sector order. */
  cells: readonly PciPlanCell[];
  /** Other cells of the same technology (the whole network is fine: it is pre-filtered by a bounding box). Cells named like a planned cell are ignored. */
  network: readonly PlacedCell[];
  /** Defined neighbour lists by cell name, used for confusion next to the geometric neighbours. */
  definedNeighbours?: ReadonlyMap<string, readonly string[]>;
  options?: PciPlanOptions;
}

export interface PciAssignment {
  cell: string;
  pci: number;
  /** N_ID1 (NR) / physicalLayerCellIdGroup (LTE). */
  group: number;
  /** N_ID2 (NR) / physicalLayerSubCellId (LTE). */
  id: number;
  /** Distance to the nearest co-channel cell already using this PCI within the search area, km; null when none. */
  nearestSamePciKm: number | null;
  /** Facing first-tier cells sharing PCI mod 3. */
  firstTierMod3Clashes: string[];
}

/** A preference the plan could not meet, for the cell it concerns. */
export interface PciPlanNote {
  cell: string;
  /** firstTierMod3: shares mod 3 with a facing first-tier cell; cositeMod3: more than 3 co-channel cells on the site. */
  rule: 'firstTierMod3' | 'cositeMod3';
  detail: string;
}

export interface PciPlanResult {
  assignments: PciAssignment[];
  /** The notes as sentences that name their cell. */
  warnings: string[];
  notes: PciPlanNote[];
  /** Cells that passed the bounding-box pre-filter. */
  considered: number;
}

const DEFAULTS = {
  reuseDistanceKm: 5,
  neighbourDistanceKm: 2,
  firstTierFactor: 1.5,
  halfBeamDeg: 60,
  firstTierMod3: 'avoid',
  sameChannelOnly: true,
  sameGroup: true,
} as const;

export function pciCount(tech: PciTech): number {
  return tech === 'NR' ? NR_PCI_COUNT : LTE_PCI_COUNT;
}

/** PCI = 3·group + id, checked against the technology's ranges. */
export function composePci(tech: PciTech, group: number, id: number): number {
  const groups = pciCount(tech) / 3;
  if (!Number.isInteger(group) || group < 0 || group >= groups) throw new PlanningError(`${tech} PCI group ${group} is outside 0–${groups - 1}`);
  if (!Number.isInteger(id) || id < 0 || id > 2) throw new PlanningError(`${tech} PCI id ${id} is outside 0–2`);
  return 3 * group + id;
}

export function splitPci(tech: PciTech, pci: number): { group: number; id: number } {
  if (!Number.isInteger(pci) || pci < 0 || pci >= pciCount(tech)) throw new PlanningError(`${tech} PCI ${pci} is outside 0–${pciCount(tech) - 1}`);
  return { group: Math.floor(pci / 3), id: pci % 3 };
}

interface Region {
  cell: PlacedCell;
  distKm: number;
}

/** Per-channel view of the surroundings of the site. */
interface ChannelContext {
  forbidden: Map<number, string>;
  /** Distance to the nearest user of each PCI (Infinity when none in the search area). */
  nearest: Float64Array;
  cositeMod3: Set<number>;
  cositeMod30: Set<number>;
  cositeCount: number;
  firstTier: Region[];
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function planPcis(req: PciPlanRequest): PciPlanResult {
  const o = { ...DEFAULTS, ...(req.options ?? {}) };
  const count = pciCount(req.tech);
  if (req.cells.length === 0) return { assignments: [], warnings: [], notes: [], considered: 0 };
  const plannedNames = new Set(req.cells.map((c) => c.name));
  if (plannedNames.size !== req.cells.length) throw new PlanningError('planned cell names must be distinct');

  // 1. Bounding-box pre-filter, then haversine; stable order (distance, then name).
  const searchKm = Math.max(o.reuseDistanceKm, 2 * o.neighbourDistanceKm);
  const box = boundingBox(req.site, searchKm);
  const region: Region[] = [];
  let considered = 0;
  for (const c of req.network) {
    if (plannedNames.has(c.name) || !inBox(c, box)) continue;
    considered++;
    const d = c.siteId === req.site.id ? 0 : haversineKm(req.site, c);
    if (d <= searchKm) region.push({ cell: c, distKm: d });
  }
  region.sort((a, b) => a.distKm - b.distKm || cmpStr(a.cell.name, b.cell.name));
  const byName = new Map<string, PlacedCell>();
  if (req.definedNeighbours) for (const c of req.network) byName.set(c.name, c);

  const contexts = new Map<string, ChannelContext>();
  const contextOf = (channel: number | null): ChannelContext => {
    const key = o.sameChannelOnly ? String(channel) : '*';
    let ctx = contexts.get(key);
    if (!ctx) {
      ctx = buildContext(req, region, byName, channel, o, count);
      contexts.set(key, ctx);
    }
    return ctx;
  };

  const cells = req.cells.map((c) => ({ ...c, ctx: contextOf(c.channel) }));
  const notes: PciPlanNote[] = [];
  const reserved = new Set(o.reserved ?? []);

  // Facing first-tier cells per planned cell, by mod 3.
  const tierByCell = cells.map((c) => {
    const m = new Map<number, string[]>();
    for (const r of c.ctx.firstTier) {
      if (r.cell.pci === null || !faces(req.site, c.azimuth, r.cell, o.halfBeamDeg)) continue;
      const k = r.cell.pci % 3;
      const list = m.get(k) ?? [];
      list.push(r.cell.name);
      m.set(k, list);
    }
    return m;
  });

  const sameChannel = (i: number, j: number): boolean =>
    !o.sameChannelOnly || cells[i]?.channel === null || cells[j]?.channel === null || cells[i]?.channel === cells[j]?.channel;
  const cositeTotal = (i: number): number => {
    let n = (cells[i] as (typeof cells)[number]).ctx.cositeCount;
    for (let j = 0; j < cells.length; j++) if (sameChannel(i, j)) n++;
    return n;
  };
  const hardMod3 = cells.map((_, i) => cositeTotal(i) <= 3);

  const hardOk = (i: number, pci: number, chosen: readonly (number | undefined)[]): boolean => {
    const c = cells[i] as (typeof cells)[number];
    if (reserved.has(pci) || c.ctx.forbidden.has(pci) || c.ctx.cositeMod30.has(pci % 30)) return false;
    if (hardMod3[i] && c.ctx.cositeMod3.has(pci % 3)) return false;
    if (o.firstTierMod3 === 'strict' && (tierByCell[i]?.get(pci % 3)?.length ?? 0) > 0) return false;
    for (let j = 0; j < chosen.length; j++) {
      const p = chosen[j];
      if (j === i || p === undefined) continue;
      if (p === pci) return false;
      if (!sameChannel(i, j)) continue;
      if (p % 30 === pci % 30) return false;
      if ((hardMod3[i] || hardMod3[j]) && p % 3 === pci % 3) return false;
    }
    return true;
  };
  const softClashes = (i: number, pci: number, chosen: readonly (number | undefined)[]): number => {
    let n = tierByCell[i]?.get(pci % 3)?.length ?? 0;
    if (!hardMod3[i]) {
      const c = cells[i] as (typeof cells)[number];
      if (c.ctx.cositeMod3.has(pci % 3)) n++;
      for (let j = 0; j < chosen.length; j++) {
        const p = chosen[j];
        if (j !== i && p !== undefined && sameChannel(i, j) && p % 3 === pci % 3) n++;
      }
    }
    return n;
  };
  const nearestOf = (i: number, pci: number): number => (cells[i] as (typeof cells)[number]).ctx.nearest[pci] ?? Infinity;

  let chosen: number[] | null = null;

  // 2. One N_ID1 group for the whole site (≤ 3 cells): every group × every injective N_ID2 map.
  if (o.sameGroup && cells.length <= 3) {
    const perms = permutations([0, 1, 2], cells.length);
    let best: { clashes: number; reuse: number; pcis: number[] } | null = null;
    for (let g = 0; g < count / 3; g++) {
      for (const perm of perms) {
        const pcis = perm.map((id) => 3 * g + id);
        if (!pcis.every((p, i) => hardOk(i, p, pcis))) continue;
        let clashes = 0;
        let reuse = Infinity;
        pcis.forEach((p, i) => {
          clashes += softClashes(i, p, pcis);
          reuse = Math.min(reuse, nearestOf(i, p));
        });
        if (!best || clashes < best.clashes || (clashes === best.clashes && reuse > best.reuse)) best = { clashes, reuse, pcis };
      }
    }
    if (best) chosen = best.pcis;
  }

  // 3. Otherwise cell by cell, in sector order.
  if (!chosen) {
    const picked: (number | undefined)[] = cells.map(() => undefined);
    cells.forEach((c, i) => {
      let best: { clashes: number; reuse: number; pci: number } | null = null;
      for (let p = 0; p < count; p++) {
        if (!hardOk(i, p, picked)) continue;
        const clashes = softClashes(i, p, picked);
        const reuse = nearestOf(i, p);
        if (!best || clashes < best.clashes || (clashes === best.clashes && reuse > best.reuse)) best = { clashes, reuse, pci: p };
      }
      if (!best) throw new PlanningError(impossibleMessage(req.tech, c.name, c.ctx, count, o.reuseDistanceKm, o.neighbourDistanceKm, reserved.size));
      picked[i] = best.pci;
    });
    chosen = picked as number[];
  }

  const assignments: PciAssignment[] = cells.map((c, i) => {
    const pci = chosen[i] as number;
    const clashes = [...(tierByCell[i]?.get(pci % 3) ?? [])].sort(cmpStr);
    if (clashes.length > 0) {
      notes.push({ cell: c.name, rule: 'firstTierMod3', detail: `PCI ${pci} shares mod 3 (${pci % 3}) with facing first-tier cell(s) ${clashes.join(', ')}` });
    }
    if (!hardMod3[i]) {
      const same = cells.filter((d, j) => j !== i && sameChannel(i, j) && (chosen[j] as number) % 3 === pci % 3).map((d) => d.name);
      if (same.length > 0) {
        notes.push({ cell: c.name, rule: 'cositeMod3', detail: `more than 3 co-channel cells on the site; PCI ${pci} shares mod 3 with ${same.join(', ')}` });
      }
    }
    const near = nearestOf(i, pci);
    return {
      cell: c.name,
      pci,
      group: Math.floor(pci / 3),
      id: pci % 3,
      nearestSamePciKm: Number.isFinite(near) ? Math.round(near * 1000) / 1000 : null,
      firstTierMod3Clashes: clashes,
    };
  });
  return { assignments, warnings: notes.map((n) => `${n.cell}: ${n.detail}`), notes, considered };
}

function buildContext(
  req: PciPlanRequest,
  region: readonly Region[],
  byName: ReadonlyMap<string, PlacedCell>,
  channel: number | null,
  o: Required<Omit<PciPlanOptions, 'reserved'>>,
  count: number,
): ChannelContext {
  const relevant = (c: PlacedCell): boolean => !o.sameChannelOnly || channel === null || c.channel === null || c.channel === channel;
  const cells = region.filter((r) => relevant(r.cell));
  const forbidden = new Map<number, string>();
  const forbid = (pci: number | null, why: string): void => {
    if (pci !== null && pci >= 0 && pci < count && !forbidden.has(pci)) forbidden.set(pci, why);
  };
  const nearest = new Float64Array(count).fill(Infinity);
  const cositeMod3 = new Set<number>();
  const cositeMod30 = new Set<number>();
  let cositeCount = 0;

  for (const r of cells) {
    const pci = r.cell.pci;
    if (r.cell.siteId === req.site.id) {
      cositeCount++;
      if (pci !== null) {
        cositeMod3.add(pci % 3);
        cositeMod30.add(pci % 30);
      }
    }
    if (pci === null || pci < 0 || pci >= count) continue;
    if (r.distKm < (nearest[pci] ?? Infinity)) nearest[pci] = r.distKm;
    if (r.distKm <= o.reuseDistanceKm) forbid(pci, `collision with ${r.cell.name}`);
  }

  // Confusion: the cells X within the neighbour distance will list the new cell as a neighbour.
  const xs = cells.filter((r) => r.distKm <= o.neighbourDistanceKm);
  const seenSites = new Map<string, PlacedCell[]>();
  for (const x of xs) {
    forbid(x.cell.pci, `collision with neighbour ${x.cell.name}`);
    // X's geometric neighbours depend only on X's site position: computed once per site.
    let around = seenSites.get(x.cell.siteId);
    if (!around) {
      around = [];
      for (const y of cells) if (y.cell.siteId === x.cell.siteId || haversineKm(x.cell, y.cell) <= o.neighbourDistanceKm) around.push(y.cell);
      seenSites.set(x.cell.siteId, around);
    }
    for (const y of around) if (y !== x.cell) forbid(y.pci, `confusion at ${x.cell.name} with ${y.name}`);
    for (const name of req.definedNeighbours?.get(x.cell.name) ?? []) {
      const y = byName.get(name);
      if (y && relevant(y)) forbid(y.pci, `confusion at ${x.cell.name} with ${y.name}`);
    }
  }

  // First tier: the nearest ring of other sites.
  const others = cells.filter((r) => r.cell.siteId !== req.site.id && r.distKm > 0);
  const d1 = others[0]?.distKm;
  const firstTier = d1 === undefined ? [] : others.filter((r) => r.distKm <= d1 * o.firstTierFactor);
  return { forbidden, nearest, cositeMod3, cositeMod30, cositeCount, firstTier };
}

/** Whether a planned cell at the site (azimuth) and another cell point their main lobes at each other. */
function faces(site: LatLon, azimuth: number | null, other: PlacedCell, halfBeamDeg: number): boolean {
  if (azimuth !== null && angleDiffDeg(bearingDeg(site, other), azimuth) >= halfBeamDeg) return false;
  if (other.azimuth !== null && angleDiffDeg(bearingDeg(other, site), other.azimuth) >= halfBeamDeg) return false;
  return true;
}

function permutations(items: readonly number[], k: number): number[][] {
  if (k === 0) return [[]];
  const out: number[][] = [];
  for (let i = 0; i < items.length; i++) {
    const rest = items.filter((_, j) => j !== i);
    for (const p of permutations(rest, k - 1)) out.push([items[i] as number, ...p]);
  }
  return out;
}

function impossibleMessage(tech: PciTech, cell: string, ctx: ChannelContext, count: number, reuseKm: number, nbrKm: number, reserved: number): string {
  let collisions = 0;
  let confusions = 0;
  for (const why of ctx.forbidden.values()) {
    if (why.startsWith('confusion')) confusions++;
    else collisions++;
  }
  return (
    `no ${tech} PCI left for cell ${cell}: of ${count} PCIs, ${collisions} collide within ${reuseKm} km or with a neighbour, ` +
    `${confusions} would cause confusion (neighbour distance ${nbrKm} km), ${reserved} are reserved, and the rest clash ` +
    `mod 3 / mod 30 with co-site cells${ctx.cositeMod30.size > 0 ? ` (co-site mod 30 in use: ${[...ctx.cositeMod30].sort((a, b) => a - b).join(', ')})` : ''}`
  );
}
