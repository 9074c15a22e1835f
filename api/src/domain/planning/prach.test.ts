import type { Site } from '../network/model';
import { CENTRE, hexSites, placed } from './__tests__/fixtures';
import { PlanningError } from './errors';
import { planPrachRoots, rangesOverlap } from './prach';

const site = { id: 'S0', ...CENTRE };
const cells = [1, 2, 3].map((s) => ({ name: `S0_N78_${s}`, channel: 636666 }));

describe('PRACH root sequences', () => {
  it('detects cyclic overlaps', () => {
    expect(rangesOverlap(0, 4, 4, 4, 138)).toBe(false); // 0–3 and 4–7
    expect(rangesOverlap(0, 5, 4, 4, 138)).toBe(true); //  0–4 and 4–7
    expect(rangesOverlap(136, 4, 0, 2, 138)).toBe(true); // 136, 137, 0, 1 wraps onto 0–1
    expect(rangesOverlap(136, 2, 0, 2, 138)).toBe(false);
  });

  it('keeps first indices ≥ 10 apart and ranges disjoint, lowest start first', () => {
    // No neighbour: 4 roots each → starts 0, 10, 20 (spacing 10 > 4 roots).
    const res = planPrachRoots({ site, cells, network: [], options: { format: 'short', rootsPerCell: 4 } });
    expect(res.map((r) => r.rootSequence)).toEqual([0, 10, 20]);
    expect(res[0]?.roots).toEqual([0, 1, 2, 3]);
  });

  it('takes the roots count when it exceeds the spacing, and steers clear of neighbours', () => {
    const sites = hexSites(1, 30);
    // Neighbours at 1 km using 0–15 and 30–45 (16 roots each).
    const network = [placed(sites[1] as Site, 'N1', 0, 1, { rachRootSequence: 0 }), placed(sites[2] as Site, 'N2', 0, 2, { rachRootSequence: 30 })];
    const res = planPrachRoots({ site, cells, network, options: { format: 'long', rootsPerCell: 16, reuseDistanceKm: 2 } });
    // cell 1: 16–31 overlaps N2 (30–45) → first free start with no overlap is 46 (46–61).
    // cell 2: 62 (62–77); cell 3: 78 (78–93).
    expect(res.map((r) => r.rootSequence)).toEqual([46, 62, 78]);
  });

  it('wraps round the end of the root space', () => {
    const network = [placed({ id: 'S0', name: '', ...CENTRE }, 'OLD', 0, 0, { rachRootSequence: 10 })];
    // The neighbour holds 10–109 (100 roots). Any start 0–109 overlaps it; 110 with 30 roots is 110–137 then 0–1
    // (cyclic), clear of 10–109 and 100 (≥ 10) from its first index.
    const res = planPrachRoots({ site, cells: cells.slice(0, 1), network, options: { format: 'short', rootsPerCell: 30, neighbourRootsPerCell: 100 } });
    expect(res[0]?.rootSequence).toBe(110);
    expect(res[0]?.roots.slice(-3)).toEqual([137, 0, 1]);
  });

  it('fails clearly when the root space is exhausted', () => {
    const network = [placed({ id: 'S0', name: '', ...CENTRE }, 'OLD', 0, 0, { rachRootSequence: 0 })];
    expect(() => planPrachRoots({ site, cells, network, options: { format: 'short', rootsPerCell: 40, neighbourRootsPerCell: 100 } })).toThrow(PlanningError);
    expect(() => planPrachRoots({ site, cells, network: [], options: { format: 'short', rootsPerCell: 139 } })).toThrow(/rootsPerCell must be 1–138/);
  });
});
