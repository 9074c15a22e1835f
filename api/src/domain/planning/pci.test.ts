import type { Site } from '../network/model';
import { CENTRE, hexSites, placed } from './__tests__/fixtures';
import { PlanningError } from './errors';
import { destination, haversineKm } from './geo';
import { composePci, planPcis, splitPci, type PciPlanResult } from './pci';
import type { PlacedCell } from './placed';

const AZ = [0, 120, 240];
const centreCells = AZ.map((az, i) => ({ name: `S0_N78_${i + 1}`, azimuth: az, channel: 636666 }));

/** Ring sites with three sectors each; pciOf(siteIndex 1–6, sector 0–2). */
function ring(sites: Site[], pciOf: (k: number, sector: number) => number): PlacedCell[] {
  const out: PlacedCell[] = [];
  for (let k = 1; k <= 6; k++) AZ.forEach((az, s) => out.push(placed(sites[k] as Site, `S${k}_N78_${s + 1}`, az, pciOf(k, s))));
  return out;
}

/** Brute force: no cell within the reuse distance shares a planned PCI; no neighbour of the site has a neighbour with it. */
function assertNoCollisionOrConfusion(result: PciPlanResult, network: PlacedCell[], reuseKm: number, nbrKm: number): void {
  const site = { lat: CENTRE.lat, lon: CENTRE.lon };
  for (const a of result.assignments) {
    for (const y of network) {
      if (y.pci !== a.pci) continue;
      expect({ cell: a.cell, pci: a.pci, collidesWith: y.name, within: haversineKm(site, y) <= reuseKm }).toEqual({
        cell: a.cell,
        pci: a.pci,
        collidesWith: y.name,
        within: false,
      });
    }
    for (const x of network.filter((c) => haversineKm(site, c) <= nbrKm)) {
      for (const y of network) {
        if (y === x || y.pci !== a.pci) continue;
        const confused = haversineKm(x, y) <= nbrKm;
        expect({ cell: a.cell, neighbour: x.name, other: y.name, confused }).toEqual({ cell: a.cell, neighbour: x.name, other: y.name, confused: false });
      }
    }
  }
}

describe('NR PCI planner on a 7-site hexagon', () => {
  const sites = hexSites(1, 30);
  // Ring site k uses N_ID1 = k − 1 with N_ID2 = sector: PCIs 0–17.
  const base = ring(sites, (k, s) => 3 * (k - 1) + s);
  // An outer site 2 km out at bearing 30°, 1 km beyond S1, with N_ID1 6 (PCIs 18–20): outside the reuse distance
  // (1.5 km) but a neighbour (≤ 1.2 km) of S1, itself a neighbour of the centre → using 18–20 would confuse S1's cells.
  const outerSite: Site = { id: 'S7', name: 'Outer', ...destination(CENTRE, 2, 30) };
  const outer = AZ.map((az, s) => placed(outerSite, `S7_N78_${s + 1}`, az, 18 + s));
  const network = [...base, ...outer];
  const options = { reuseDistanceKm: 1.5, neighbourDistanceKm: 1.2 };

  it('never returns a colliding or confusing PCI, keeps one N_ID1 and avoids mod-3 clashes', () => {
    const res = planPcis({ tech: 'NR', site: { id: 'S0', ...CENTRE }, cells: centreCells, network, options });
    // Groups 0–5 collide (ring, 1 km), group 6 confuses (outer site via S1) → N_ID1 7.
    // Facing first-tier cells (±60°): sector 0° faces S1's 240° (N_ID2 2) and S6's 120° (N_ID2 1) → N_ID2 0;
    // sector 120° faces S2's 240° (2) and S3's 0° (0) → 1; sector 240° faces S4's 0° (0) and S5's 120° (1) → 2.
    expect(res.assignments.map((a) => a.pci)).toEqual([21, 22, 23]);
    expect(res.assignments.map((a) => [a.group, a.id])).toEqual([
      [7, 0],
      [7, 1],
      [7, 2],
    ]);
    expect(res.assignments.every((a) => a.firstTierMod3Clashes.length === 0)).toBe(true);
    expect(new Set(res.assignments.map((a) => a.pci % 3)).size).toBe(3);
    expect(res.warnings).toEqual([]);
    assertNoCollisionOrConfusion(res, network, options.reuseDistanceKm, options.neighbourDistanceKm);
  });

  it('uses defined neighbour lists for confusion too', () => {
    const far: Site = { id: 'FAR', name: 'Far', ...destination(CENTRE, 40, 90) };
    const farCell = placed(far, 'FAR_1', 0, 21);
    const res = planPcis({
      tech: 'NR',
      site: { id: 'S0', ...CENTRE },
      cells: centreCells,
      network: [...network, farCell],
      definedNeighbours: new Map([['S1_N78_3', ['FAR_1']]]),
      options,
    });
    // PCI 21 (N_ID1 7, N_ID2 0) is a defined neighbour of S1_N78_3 → N_ID1 7 cannot give three PCIs → N_ID1 8.
    expect(res.assignments.map((a) => a.pci)).toEqual([24, 25, 26]);
  });

  it('minimises mod-3 clashes with the facing first tier', () => {
    // Facing cells: S1/240° N_ID2 0, S6/120° 1 → sector 0° needs 2; S2/240° 2, S3/0° 0 → sector 120° needs 1;
    // S4/0° 1, S5/120° 2 → sector 240° needs 0. Ring N_ID1 10 + k.
    const ids: Record<number, [number, number, number]> = { 1: [1, 2, 0], 2: [0, 1, 2], 3: [0, 1, 2], 4: [1, 2, 0], 5: [0, 2, 1], 6: [0, 1, 2] };
    const net = ring(sites, (k, s) => 3 * (10 + k) + (ids[k] as number[])[s]!);
    const res = planPcis({ tech: 'NR', site: { id: 'S0', ...CENTRE }, cells: centreCells, network: net, options });
    expect(res.assignments.map((a) => a.pci % 3)).toEqual([2, 1, 0]);
    expect(res.assignments.map((a) => a.pci)).toEqual([2, 1, 0]); // N_ID1 0 is free
    expect(res.warnings).toEqual([]);
    assertNoCollisionOrConfusion(res, net, options.reuseDistanceKm, options.neighbourDistanceKm);
  });

  it('reports first-tier clashes it cannot avoid, or refuses them in strict mode', () => {
    // With ±91° beams sector 0° faces S1, S2, S5 and S6 (bearings 30°, 90°, 270°, 330°), and N_ID2 = (k + sector) mod 3
    // gives those facing cells every N_ID2 between them: some clash is unavoidable.
    const net = ring(sites, (k, s) => 3 * (10 + k) + ((k + s) % 3));
    const wide = { ...options, halfBeamDeg: 91 };
    const res = planPcis({ tech: 'NR', site: { id: 'S0', ...CENTRE }, cells: centreCells, network: net, options: wide });
    expect(res.assignments.some((a) => a.firstTierMod3Clashes.length > 0)).toBe(true);
    expect(res.warnings.some((w) => /facing first-tier/.test(w))).toBe(true);
    expect(() =>
      planPcis({ tech: 'NR', site: { id: 'S0', ...CENTRE }, cells: centreCells, network: net, options: { ...wide, firstTierMod3: 'strict' } }),
    ).toThrow(PlanningError);
  });

  it('is deterministic whatever the order of the network', () => {
    const a = planPcis({ tech: 'NR', site: { id: 'S0', ...CENTRE }, cells: centreCells, network, options });
    const shuffled = [...network].reverse();
    shuffled.push(shuffled.shift() as PlacedCell);
    const b = planPcis({ tech: 'NR', site: { id: 'S0', ...CENTRE }, cells: centreCells, network: shuffled, options });
    expect(b).toEqual(a);
  });

  it('keeps co-site PCIs distinct mod 30 and warns about mod 3 with more than three sectors', () => {
    const six = [0, 60, 120, 180, 240, 300].map((az, i) => ({ name: `S0_N78_${i + 1}`, azimuth: az, channel: 636666 }));
    const res = planPcis({ tech: 'NR', site: { id: 'S0', ...CENTRE }, cells: six, network, options });
    const pcis = res.assignments.map((a) => a.pci);
    expect(new Set(pcis.map((p) => p % 30)).size).toBe(6);
    expect(new Set(pcis).size).toBe(6);
    expect(res.warnings.some((w) => /more than 3 co-channel cells/.test(w))).toBe(true);
    assertNoCollisionOrConfusion(res, network, options.reuseDistanceKm, options.neighbourDistanceKm);
  });

  it('respects the mod-30 and mod-3 of existing co-site cells', () => {
    const existing = placed(sites[0] as Site, 'S0_N78_OLD', 60, 3 * 40 + 1); // 121: mod 3 = 1, mod 30 = 1
    const two = centreCells.slice(0, 2);
    const res = planPcis({ tech: 'NR', site: { id: 'S0', ...CENTRE }, cells: two, network: [...network, existing], options });
    for (const a of res.assignments) {
      expect(a.pci % 3).not.toBe(1);
      expect(a.pci % 30).not.toBe(1);
    }
  });

  it('ignores cells on other channels', () => {
    const otherChannel = base.map((c) => ({ ...c, channel: 643334 }));
    const res = planPcis({ tech: 'NR', site: { id: 'S0', ...CENTRE }, cells: centreCells, network: otherChannel, options });
    expect(res.assignments.map((a) => a.pci)).toEqual([0, 1, 2]);
  });

  it('says which cell cannot be planned when no PCI is left', () => {
    const reserved = Array.from({ length: 1008 }, (_, i) => i).filter((p) => p > 2);
    expect(() => planPcis({ tech: 'NR', site: { id: 'S0', ...CENTRE }, cells: centreCells.slice(0, 1), network, options: { ...options, reserved } })).toThrow(
      /no NR PCI left for cell S0_N78_1: of 1008 PCIs/,
    );
  });
});

describe('LTE PCI', () => {
  it('composes and splits 3·group + subCellId', () => {
    expect(composePci('LTE', 167, 2)).toBe(503); // 3·167 + 2
    expect(composePci('NR', 335, 2)).toBe(1007); // 3·335 + 2
    expect(splitPci('LTE', 100)).toEqual({ group: 33, id: 1 }); // 100 = 3·33 + 1
    expect(() => composePci('LTE', 168, 0)).toThrow(PlanningError);
    expect(() => splitPci('LTE', 504)).toThrow(PlanningError);
    expect(() => splitPci('NR', 1008)).toThrow(PlanningError);
  });

  it('plans anchors within 0–503 with the same rules', () => {
    const sites = hexSites(1, 30);
    const net = ring(sites, (k, s) => 3 * (k - 1) + s).map((c) => ({ ...c, tech: '4G' as const, channel: 6300 }));
    const res = planPcis({
      tech: 'LTE',
      site: { id: 'S0', ...CENTRE },
      cells: AZ.map((az, i) => ({ name: `S0_L800_${i + 1}`, azimuth: az, channel: 6300 })),
      network: net,
      options: { reuseDistanceKm: 1.5, neighbourDistanceKm: 1.2 },
    });
    // Groups 0–5 collide; group 6 is free → 18, 19, 20.
    expect(res.assignments.map((a) => a.pci)).toEqual([18, 19, 20]);
    expect(res.assignments.every((a) => a.pci === 3 * a.group + a.id && a.pci < 504)).toBe(true);
  });
});

describe('scale', () => {
  it('plans one site in a 10,000-cell network looking only at the cells near it', () => {
    // 3,334 sites on a jittered 600 m grid (≈ 35 km × 35 km), 3 cells each, pseudo-random PCIs.
    let seed = 42;
    const rnd = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const network: PlacedCell[] = [];
    const side = 58;
    for (let i = 0; network.length < 10_000; i++) {
      const p = destination(destination(CENTRE, (Math.floor(i / side) - side / 2) * 0.6 + rnd() * 0.2, 0), ((i % side) - side / 2) * 0.6 + rnd() * 0.2, 90);
      const site: Site = { id: `X${i}`, name: `X${i}`, ...p };
      for (let s = 0; s < 3 && network.length < 10_000; s++) network.push(placed(site, `X${i}_${s}`, AZ[s] as number, Math.floor(rnd() * 1008)));
    }
    const options = { reuseDistanceKm: 3, neighbourDistanceKm: 1.2 };
    // Speed is the bench's to measure; this checks why it is fast: only the cells near the site (the bounding
    // box) are ever measured with haversine, whatever the size of the network.
    const res = planPcis({ tech: 'NR', site: { id: 'S0', ...CENTRE }, cells: centreCells, network, options });
    expect(network).toHaveLength(10_000);
    expect(res.considered).toBeLessThan(500);
    assertNoCollisionOrConfusion(res, network, options.reuseDistanceKm, options.neighbourDistanceKm);
  });
});
