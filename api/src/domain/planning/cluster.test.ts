import type { Cell, Site } from '../network/model';
import { cell } from './__tests__/fixtures';
import { destination, haversineKm, type LatLon } from './geo';
import {
  planCluster,
  plannedCellsOf,
  placedOf,
  type ClusterPlan,
  type OperatorFrequencyPlan,
  type PlanningSite,
  type ReservedCell,
} from './parameter-planning';
import { placeCells, type PlacedCell } from './placed';

/*
 * Issue 46: planning LX0003, LX0005, LX0006, LX0010, LX0020 and LX0050 one by one gave every site NR PCIs
 * 0/1/2 on NR-ARFCN 643334. Here six neighbouring sites of Lisbon (Alvalade and around, a 2 × 3 grid
 * 1.5 km apart: 1.5–3.4 km between any two) sit inside an inventory of NR sites on both demo carriers
 * (643334 and 636666); C3 already carries n78 cells as LX0003 does (636666, PCIs 339–341, TAC 5008).
 */

const REUSE_KM = 5;
const NBR_KM = 2;
const AZ = [10, 130, 250];
const ALVALADE = { lat: 38.7495, lon: -9.144 };
const PLAN: OperatorFrequencyPlan = { operator: 'Vodafone PT', nr: { centreMHz: 3650.01, bandwidthMHz: 100 }, lte: { L800: [6300], L1800: [1850] } };
const CARRIER = 643334;
const BANDS = ['L800', 'L1800'] as const;

function at(km: number, bearing: number): { lat: number; lon: number } {
  return km === 0 ? { ...ALVALADE } : destination(ALVALADE, km, bearing);
}

/** C1…C6: two rows of three, 1.5 km apart, east and south of Alvalade. */
const CLUSTER: Site[] = [0, 1, 2, 3, 4, 5].map((i) => {
  const east = (i % 3) * 1.5;
  const south = Math.floor(i / 3) * 1.5;
  const p = destination(destination(ALVALADE, east, 90), south, 180);
  return { id: `C${i + 1}`, name: `Cluster ${i + 1}`, lat: p.lat, lon: p.lon };
});

/** Inventory NR sites around the cluster (2.5–4.5 km from it) on both carriers, with PCI groups 0–9 in use. */
const AROUND: Site[] = [
  [3, 300],
  [2.5, 0],
  [3.5, 45],
  [4.5, 110],
  [4, 160],
  [3.5, 200],
  [3, 240],
  [4.5, 270],
  [2.5, 135],
  [4, 20],
].map(([km, bearing], i) => ({ id: `N${i + 1}`, name: `Around ${i + 1}`, ...at(km as number, bearing as number) }));

function lteCells(site: Site, tac = 3008): Cell[] {
  return AZ.flatMap((azimuth, s) => [
    cell({ name: `${site.id}_L800_${s + 1}`, siteId: site.id, tech: '4G', band: 'L800', channel: 6300, pci: 30 + s, tac, azimuth }),
    cell({ name: `${site.id}_L1800_${s + 1}`, siteId: site.id, tech: '4G', band: 'L1800', channel: 1850, pci: 60 + s, tac, azimuth }),
  ]);
}

/** LX0003's n78 cells: NR-ARFCN 636666, PCIs 339–341, TAC 5008. */
function n78Cells(site: Site): Cell[] {
  return AZ.map((azimuth, s) =>
    cell({
      name: `${site.id}_N78_${s + 1}`,
      siteId: site.id,
      nodeName: `NR_${site.id}`,
      tech: '5G',
      band: 'n78',
      channel: 636666,
      ssb: 636666,
      pci: 339 + s,
      tac: 5008,
      nrTac: 5008,
      azimuth,
      cellId: s + 1,
      ownerId: 20003,
      rachRootSequence: 10 * s,
    }),
  );
}

const C3 = CLUSTER[2] as Site;
const siteCells = new Map<string, Cell[]>(CLUSTER.map((s) => [s.id, s === C3 ? [...lteCells(s), ...n78Cells(s)] : lteCells(s)]));

function inventory(): PlacedCell[] {
  const aroundCells = AROUND.flatMap((s, k) =>
    AZ.map((azimuth, sec) =>
      cell({
        name: `${s.id}_N78_${sec + 1}`,
        siteId: s.id,
        tech: '5G',
        channel: k % 3 === 2 ? 636666 : CARRIER,
        pci: 3 * k + sec,
        azimuth,
        rachRootSequence: 4 * sec,
      }),
    ),
  );
  return placeCells([...CLUSTER, ...AROUND], [...[...siteCells.values()].flat(), ...aroundCells]);
}

const input = (sites: readonly Site[]): PlanningSite[] => sites.map((site) => ({ site, siteCells: siteCells.get(site.id) ?? [] }));
const options = { pci: { reuseDistanceKm: REUSE_KM, neighbourDistanceKm: NBR_KM } };

/** The reservations a recorded plan leaves, as the next run reads them. */
function reservationsOf(plan: ClusterPlan, runId: number): ReservedCell[] {
  return plannedCellsOf(plan).map((c) => ({ ...placedOf(c, c), runId }));
}

/**
 * Brute force over the final network (inventory + every plan): no planned cell shares its PCI with a
 * co-channel cell within the reuse distance (collision), and no cell has two neighbours — cells within
 * the neighbour distance — sharing a PCI on one NR-ARFCN when one of them is planned (confusion).
 */
function violations(all: readonly PlacedCell[], planned: ReadonlySet<string>): string[] {
  const found: string[] = [];
  const nr = all.filter((c) => c.tech === '5G' && c.pci !== null);
  const km = (a: PlacedCell, b: PlacedCell) => (a.siteId === b.siteId ? 0 : haversineKm(a, b));
  for (const p of nr.filter((c) => planned.has(c.name))) {
    for (const y of nr) {
      if (y !== p && y.channel === p.channel && y.pci === p.pci && km(p, y) <= REUSE_KM) {
        found.push(`collision ${p.name}/${y.name} PCI ${p.pci} at ${km(p, y).toFixed(2)} km`);
      }
    }
  }
  for (const x of nr) {
    const neighbours = nr.filter((y) => y !== x && km(x, y) <= NBR_KM);
    for (const [i, a] of neighbours.entries()) {
      for (const b of neighbours.slice(i + 1)) {
        if (a.channel === b.channel && a.pci === b.pci && (planned.has(a.name) || planned.has(b.name))) {
          found.push(`confusion at ${x.name}: ${a.name}/${b.name} PCI ${a.pci}`);
        }
      }
    }
  }
  return found;
}

/** Co-site rules of docs/engines/planning.md#parameter-planning-5g-nr-en-dc: the NR cells of one site on one carrier differ mod 3 (≤ 3 cells) and mod 30. */
function cositeClashes(plan: ClusterPlan): string[] {
  const out: string[] = [];
  for (const s of plan.sites) {
    const byCarrier = new Map<number, number[]>();
    for (const c of s.nrCells) byCarrier.set(c.nrArfcn, [...(byCarrier.get(c.nrArfcn) ?? []), c.pci]);
    for (const [carrier, pcis] of byCarrier) {
      if (new Set(pcis.map((p) => p % 30)).size !== pcis.length) out.push(`${s.siteId} ${carrier} mod 30: ${pcis.join(',')}`);
      if (pcis.length <= 3 && new Set(pcis.map((p) => p % 3)).size !== pcis.length) out.push(`${s.siteId} ${carrier} mod 3: ${pcis.join(',')}`);
    }
  }
  return out;
}

const finalNetwork = (plans: readonly ClusterPlan[]) => {
  const planned = plans.flatMap((p) => plannedCellsOf(p).map((c) => placedOf(c, c)));
  const replaced = new Set(planned.map((c) => c.name));
  return { all: [...inventory().filter((c) => !replaced.has(c.name)), ...planned], planned: new Set(planned.map((c) => c.name)) };
};

describe('coordinated planning of a cluster (issue 46)', () => {
  test('the six sites are neighbours: 1.5–3.4 km apart, the inventory 2.5–4.5 km around', () => {
    const distances = CLUSTER.flatMap((a, i) => CLUSTER.slice(i + 1).map((b) => haversineKm(a as LatLon, b as LatLon)));
    expect(Math.min(...distances)).toBeCloseTo(1.5, 1);
    expect(Math.max(...distances)).toBeLessThan(3.5);
  });

  test('planned in one run: no collision or confusion on any NR-ARFCN, co-site mod 3 and mod 30 distinct, C3 keeps its n78 cells', () => {
    const plan = planCluster({ sites: input(CLUSTER), network: inventory(), plan: PLAN, lteBands: BANDS, options });
    expect(plan.unplanned).toEqual([]);
    expect(plan.sites.map((s) => s.siteId)).toEqual(['C1', 'C2', 'C3', 'C4', 'C5', 'C6']);
    const { all, planned } = finalNetwork([plan]);
    expect(planned.size).toBe(15);
    expect(violations(all, planned)).toEqual([]);
    expect(cositeClashes(plan)).toEqual([]);
    // Not every site on PCIs 0/1/2: the six sites use six different N_ID1 groups.
    const groups = plan.sites.filter((s) => s.siteId !== 'C3').map((s) => s.nrCells.map((c) => c.pciGroup));
    for (const g of groups) expect(new Set(g).size).toBe(1);
    expect(new Set(groups.map((g) => g[0])).size).toBe(5);

    const c3 = plan.sites.find((s) => s.siteId === 'C3')!;
    expect(c3.nrCells.map((c) => [c.name, c.status, c.nrArfcn, c.pci, c.tac])).toEqual([
      ['C3_N78_1', 'kept', 636666, 339, 5008],
      ['C3_N78_2', 'kept', 636666, 340, 5008],
      ['C3_N78_3', 'kept', 636666, 341, 5008],
    ]);
    expect([c3.nrArfcnSource, c3.tac, c3.tacSource, c3.gnbName, c3.gnbId]).toEqual(['kept', 5008, 'nr', 'NR_C3', 20003]);
    // TAC follows the site's LTE TAC on the others; the EN-DC relations reach the kept cells too.
    expect(plan.sites.filter((s) => s.siteId !== 'C3').every((s) => s.tac === 3008 && s.tacSource === 'lte')).toBe(true);
    expect(c3.endcRelations.filter((r) => r.nrCellStatus === 'kept')).toHaveLength(6);
    expect(plan.problems).toEqual([]);
  });

  test('planned in six runs, each reading the reservations of the runs before: the same guarantees', () => {
    const plans: ClusterPlan[] = [];
    CLUSTER.forEach((site, runId) => {
      const reserved = plans.flatMap((p, i) => reservationsOf(p, i + 1));
      plans.push(planCluster({ sites: input([site]), network: inventory(), reserved, plan: PLAN, lteBands: BANDS, options }));
      expect(plans[runId]!.unplanned).toEqual([]);
    });
    const { all, planned } = finalNetwork(plans);
    expect(planned.size).toBe(15);
    expect(violations(all, planned)).toEqual([]);
    for (const p of plans) expect(cositeClashes(p)).toEqual([]);
    const first = plans.map((p) => p.sites[0]!.nrCells.map((c) => c.pci));
    expect(new Set(first.map((pcis) => pcis.join(','))).size).toBe(6);
    // The PRACH roots of neighbouring new cells stay 10 apart (docs/engines/planning.md#parameter-planning-5g-nr-en-dc).
    const roots = plans.flatMap((p) => plannedCellsOf(p));
    for (const [i, a] of roots.entries()) {
      for (const b of roots.slice(i + 1)) {
        if (haversineKm(a, b) <= NBR_KM) {
          const d = Math.abs((a.prachRootSequence ?? 0) - (b.prachRootSequence ?? 0)) % 138;
          expect({ a: a.name, b: b.name, spacing: Math.min(d, 138 - d) >= 10 }).toEqual({ a: a.name, b: b.name, spacing: true });
        }
      }
    }
  });

  test('without the reservations (the bug), six runs would collide: the check above is not vacuous', () => {
    const plans = CLUSTER.map((site) => planCluster({ sites: input([site]), network: inventory(), plan: PLAN, lteBands: BANDS, options }));
    const { all, planned } = finalNetwork(plans);
    expect(violations(all, planned).length).toBeGreaterThan(0);
  });

  test("a replan gives C3 new cells on the operator's carrier and its LTE TAC; its old cells are not planned around", () => {
    const plan = planCluster({ sites: input([C3]), network: inventory(), plan: PLAN, lteBands: BANDS, options, replanExisting: true });
    const c3 = plan.sites[0]!;
    expect(c3.nrCells.map((c) => [c.name, c.status, c.nrArfcn, c.tac])).toEqual([
      ['C3_N78_1', 'planned', CARRIER, 3008],
      ['C3_N78_2', 'planned', CARRIER, 3008],
      ['C3_N78_3', 'planned', CARRIER, 3008],
    ]);
    expect([c3.nrArfcnSource, c3.tacSource, c3.gnbName]).toEqual(['operator', 'lte', 'NR_C3']);
    const { all, planned } = finalNetwork([plan]);
    expect(violations(all, planned)).toEqual([]);
  });

  test('a site with NR on two of its three sectors keeps them and plans the third on their carrier, TAC and SSB', () => {
    const partial = [...lteCells(C3), ...n78Cells(C3).slice(0, 2)];
    const plan = planCluster({ sites: [{ site: C3, siteCells: partial }], network: placeCells(CLUSTER, partial), plan: PLAN, lteBands: BANDS, options });
    const cells = plan.sites[0]!.nrCells;
    expect(cells.map((c) => [c.name, c.status, c.nrArfcn, c.tac, c.ssbNrArfcn])).toEqual([
      ['C3_N78_1', 'kept', 636666, 5008, 636666],
      ['C3_N78_2', 'kept', 636666, 5008, 636666],
      ['C3_N78_3', 'planned', 636666, 5008, 636666],
    ]);
    const pcis = cells.map((c) => c.pci);
    expect(new Set(pcis.map((p) => p % 3)).size).toBe(3);
    expect(new Set(pcis.map((p) => p % 30)).size).toBe(3);
  });

  test('a discarded plan frees its PCIs: the next plan of a neighbour may take them', () => {
    const [a, b] = [CLUSTER[0]!, CLUSTER[1]!];
    const network = placeCells([a, b], [...lteCells(a), ...lteCells(b)]);
    const first = planCluster({ sites: input([a]), network, plan: PLAN, lteBands: BANDS, options });
    const taken = first.sites[0]!.nrCells.map((c) => c.pci);
    const whileReserved = planCluster({ sites: input([b]), network, reserved: reservationsOf(first, 1), plan: PLAN, lteBands: BANDS, options });
    expect(whileReserved.sites[0]!.nrCells.map((c) => c.pci).filter((p) => taken.includes(p))).toEqual([]);
    // Run 1 discarded: its reservations are gone, and B is planned as if A had never been.
    const afterDiscard = planCluster({ sites: input([b]), network, reserved: [], plan: PLAN, lteBands: BANDS, options });
    expect(afterDiscard.sites[0]!.nrCells.map((c) => c.pci)).toEqual(taken);
  });

  test("a new plan of a site supersedes the site's earlier reservation instead of planning around it", () => {
    const first = planCluster({ sites: input([CLUSTER[0]!]), network: inventory(), plan: PLAN, lteBands: BANDS, options });
    const again = planCluster({ sites: input([CLUSTER[0]!]), network: inventory(), reserved: reservationsOf(first, 1), plan: PLAN, lteBands: BANDS, options });
    expect(again.sites[0]!.nrCells.map((c) => c.pci)).toEqual(first.sites[0]!.nrCells.map((c) => c.pci));
  });

  test('a site that cannot be planned is an ERROR row; the others are still planned; a site named twice is planned once', () => {
    const lost: Site = { id: 'X1', name: 'No position', lat: null, lon: null };
    const bare: Site = { id: 'X2', name: 'No LTE', lat: CLUSTER[5]!.lat, lon: CLUSTER[5]!.lon };
    const bareCells = AZ.map((azimuth, s) => cell({ name: `X2_U2100_${s + 1}`, siteId: 'X2', tech: '3G', azimuth }));
    const plan = planCluster({
      sites: [...input([CLUSTER[0]!]), { site: lost, siteCells: lteCells(lost) }, { site: bare, siteCells: bareCells }, ...input([CLUSTER[0]!])],
      network: inventory(),
      plan: PLAN,
      lteBands: BANDS,
      options,
    });
    expect(plan.sites.map((s) => s.siteId)).toEqual(['C1']);
    expect(plan.unplanned.map((u) => [u.siteId, u.rule])).toEqual([
      ['X1', 'Site coordinates'],
      ['X2', 'LTE anchor band'],
    ]);
    expect(plan.problems).toEqual([
      { rule: 'Site coordinates', siteId: 'X1', cell: null, detail: 'site X1 has no coordinates: PCIs cannot be planned', verdict: 'ERROR' },
      {
        rule: 'LTE anchor band',
        siteId: 'X2',
        cell: null,
        detail: 'site X2 has no LTE cell on L800, L1800: there is nothing to anchor the NR cells on',
        verdict: 'ERROR',
      },
    ]);
  });

  test('an incomplete NR cell of the dump is not kept, and a kept cell that collides says so', () => {
    const broken = n78Cells(C3).map((c, i) => (i === 0 ? { ...c, pci: null } : c));
    const neighbour: Site = { id: 'N0', name: 'Near', ...destination(C3 as LatLon, 1, 0) };
    const clashing = cell({ name: 'N0_N78_1', siteId: 'N0', tech: '5G', channel: 636666, pci: 340, azimuth: 180 });
    const cells = [...lteCells(C3), ...broken];
    const plan = planCluster({
      sites: [{ site: C3, siteCells: cells }],
      network: placeCells([C3, neighbour], [...cells, clashing]),
      plan: PLAN,
      lteBands: BANDS,
      options,
    });
    const c3 = plan.sites[0]!;
    expect(c3.nrCells.map((c) => [c.name, c.status])).toEqual([
      ['C3_N78_1', 'planned'],
      ['C3_N78_2', 'kept'],
      ['C3_N78_3', 'kept'],
    ]);
    expect(plan.problems.map((p) => [p.rule, p.cell, p.verdict])).toEqual([
      ['Kept NR cell', 'C3_N78_1', 'WARNING'],
      ['NR PCI collision / confusion', 'C3_N78_2', 'WARNING'],
    ]);
    expect(plan.problems[1]!.detail).toBe(
      "kept NR cell C3_N78_2 (PCI 340) collides with N0_N78_1 1.00 km away on NR-ARFCN 636666: replan the site's NR cells to fix it",
    );
  });
});
