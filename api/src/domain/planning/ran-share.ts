import type { Cell, CellTech } from '../network/model';
import { angleDiffDeg } from './geo';
import type { NetworkIndex } from './network-index';

/**
 * RAN-share validation of a shared site (docs/engines/planning.md#ran-share-validation).
 * - MORAN: every operator has its own layer (cells whose primary PLMN is theirs). For each relation of a
 *   host-layer cell S → T, each sharing operator's counterpart of S (same site, technology and sector) must
 *   have a relation to the operator's counterpart of T (or to T itself when T broadcasts the operator's PLMN;
 *   when neither exists the relation is not required).
 * - MOCN: one layer serves several PLMNs; every target of a relation must broadcast every PLMN its source serves.
 */

export type MoranVerdict = 'OK' | 'MISSING' | 'NO_LAYER';
export type MocnVerdict = 'OK' | 'MISSING_PLMN' | 'UNRESOLVED';

export interface MoranRow {
  plmn: string;
  hostSource: string;
  hostTarget: string | null;
  /** The sharing operator's counterpart of the host source (null with NO_LAYER). */
  source: string | null;
  expectedTarget: string | null;
  verdict: MoranVerdict;
  reason: string;
}

export interface MocnRow {
  source: string;
  target: string | null;
  relationDn: string;
  sourcePlmns: string[];
  targetPlmns: string[];
  missingPlmns: string[];
  verdict: MocnVerdict;
  reason: string;
}

export interface MoranOptions {
  /** The host operator (default: the most common primary PLMN on the site; ties: the lowest). */
  hostPlmn?: string;
  /** Sharing operators (default: every other primary PLMN on the site). */
  sharingPlmns?: readonly string[];
  sectorToleranceDeg?: number;
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const techGroup = (t: CellTech): string => (t === 'NB-IoT' ? '4G' : t);
const primary = (c: Cell): string | null => c.plmns[0] ?? null;

/** The operator's counterpart of a cell: same site, technology and sector, primary PLMN `plmn`; same band first, then by name. */
export function counterpartOf(index: NetworkIndex, cell: Cell, plmn: string, toleranceDeg = 20): Cell | null {
  if (primary(cell) === plmn) return cell;
  const sameSector = (c: Cell): boolean =>
    c.azimuth === null || cell.azimuth === null ? c.azimuth === cell.azimuth : angleDiffDeg(c.azimuth, cell.azimuth) <= toleranceDeg;
  const candidates = index
    .cellsOfSite(cell.siteId)
    .filter((c) => techGroup(c.tech) === techGroup(cell.tech) && primary(c) === plmn && sameSector(c))
    .sort((a, b) => Number(b.band === cell.band) - Number(a.band === cell.band) || cmp(a.name, b.name));
  return candidates[0] ?? null;
}

export function validateMoran(index: NetworkIndex, siteId: string, options: MoranOptions = {}): MoranRow[] {
  const cells = index.cellsOfSite(siteId);
  const tol = options.sectorToleranceDeg ?? 20;
  const counts = new Map<string, number>();
  for (const c of cells) {
    const p = primary(c);
    if (p) counts.set(p, (counts.get(p) ?? 0) + 1);
  }
  const host = options.hostPlmn ?? [...counts].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0]))[0]?.[0];
  if (!host) return [];
  const sharing = [...new Set(options.sharingPlmns ?? [...counts.keys()].filter((p) => p !== host))].sort(cmp);
  const rows: MoranRow[] = [];
  for (const s of cells.filter((c) => primary(c) === host)) {
    const rels = index.relationsFrom(s.name);
    for (const plmn of sharing) {
      const mine = counterpartOf(index, s, plmn, tol);
      if (!mine) {
        rows.push({
          plmn,
          hostSource: s.name,
          hostTarget: null,
          source: null,
          expectedTarget: null,
          verdict: 'NO_LAYER',
          reason: `${plmn} has no ${s.tech} layer in the sector of ${s.name}`,
        });
        continue;
      }
      const mineTargets = new Set(index.relationsFrom(mine.name).map((r) => r.target?.name ?? r.targetName));
      for (const r of rels) {
        const t = r.target;
        if (!t) continue;
        const expected = counterpartOf(index, t, plmn, tol) ?? (t.plmns.includes(plmn) ? t : null);
        if (!expected || expected.name === mine.name) continue;
        const ok = mineTargets.has(expected.name);
        rows.push({
          plmn,
          hostSource: s.name,
          hostTarget: t.name,
          source: mine.name,
          expectedTarget: expected.name,
          verdict: ok ? 'OK' : 'MISSING',
          reason: ok ? 'OK' : `${s.name} → ${t.name} exists on the host layer, ${mine.name} → ${expected.name} is missing for ${plmn}`,
        });
      }
    }
  }
  return rows;
}

export function validateMocn(index: NetworkIndex, siteId: string): MocnRow[] {
  const rows: MocnRow[] = [];
  for (const s of index.cellsOfSite(siteId)) {
    const sourcePlmns = [...s.plmns].sort(cmp);
    for (const r of index.relationsFrom(s.name)) {
      if (!r.target) {
        rows.push({
          source: s.name,
          target: r.targetName,
          relationDn: r.relation.dn,
          sourcePlmns,
          targetPlmns: r.external?.plmn ? [r.external.plmn] : [],
          missingPlmns: [],
          verdict: 'UNRESOLVED',
          reason: `the target ${r.targetName ?? r.relation.targetRef ?? ''} is not a cell of the dump: its PLMN list is unknown`,
        });
        continue;
      }
      const targetPlmns = [...r.target.plmns].sort(cmp);
      const missing = sourcePlmns.filter((p) => !targetPlmns.includes(p));
      rows.push({
        source: s.name,
        target: r.target.name,
        relationDn: r.relation.dn,
        sourcePlmns,
        targetPlmns,
        missingPlmns: missing,
        verdict: missing.length > 0 ? 'MISSING_PLMN' : 'OK',
        reason: missing.length > 0 ? `${r.target.name} does not broadcast ${missing.join(', ')} served by ${s.name}` : 'OK',
      });
    }
  }
  return rows;
}
