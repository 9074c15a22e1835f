import type { Cell, Site } from '../network/model';
import { cell, hexSites, placed } from './__tests__/fixtures';
import { antennaSpec, parseLteBands } from './constants';
import { PlanningError } from './errors';
import { planSiteParameters, type OperatorFrequencyPlan } from './parameter-planning';
import { placeCells } from './placed';
import { deriveSectors } from './sectors';
import { chooseNrTac } from './tac';

const AZ = [0, 120, 240];
const sites = hexSites(1, 30);
const site = sites[0] as Site;

function siteCells(): Cell[] {
  const out: Cell[] = [];
  AZ.forEach((az, i) => {
    const s = i + 1;
    out.push(cell({ name: `S0_L800_${s}`, siteId: 'S0', tech: '4G', band: 'L800', channel: 6300, pci: 30 + i, tac: 3001, azimuth: az }));
    out.push(cell({ name: `S0_L1800_${s}`, siteId: 'S0', tech: '4G', band: 'L1800', channel: 1575, pci: i === 0 ? null : 99 + i, tac: 3001, azimuth: az }));
    out.push(cell({ name: `S0_L2100_${s}`, siteId: 'S0', tech: '4G', band: 'L2100', channel: i === 2 ? null : 300, pci: 60 + i, tac: 3001, azimuth: az }));
    out.push(cell({ name: `S0_U2100F1_${s}`, siteId: 'S0', tech: '3G', band: 'U2100', channel: 10612, azimuth: az }));
  });
  return out;
}

/** Ring NR cells with N_ID1 0–5 and ring L1800 cells with PCIs 0–17. */
function network(): ReturnType<typeof placeCells> {
  const out = [];
  for (let k = 1; k <= 6; k++) {
    for (const [s, az] of AZ.entries()) {
      out.push(placed(sites[k] as Site, `S${k}_N78_${s + 1}`, az, 3 * (k - 1) + s, { channel: 643334 }));
      out.push(placed(sites[k] as Site, `S${k}_L1800_${s + 1}`, az, 3 * (k - 1) + s, { tech: '4G', channel: 1575 }));
    }
  }
  return [...out, ...placeCells([site], siteCells())];
}

const plan: OperatorFrequencyPlan = {
  operator: 'OP1',
  nr: { centreMHz: 3650, bandwidthMHz: 100 },
  lte: { L800: [6300], L1800: [1575], L2100: [300] },
};
const options = { pci: { reuseDistanceKm: 1.5, neighbourDistanceKm: 1.2 } };

describe('parameter planning', () => {
  it('plans the NR cells, anchors, EN-DC and X2 relations of a site', () => {
    const res = planSiteParameters({ site, siteCells: siteCells(), network: network(), plan, options });
    expect(res.antenna).toBe('AIR3227/78');
    expect(res.txRx).toBe('32T32R');
    expect(res.lteBands).toEqual(['L800', 'L1800', 'L2100']);
    expect(res.sectors.map((s) => [s.number, s.azimuth])).toEqual([
      [1, 0],
      [2, 120],
      [3, 240],
    ]);
    // NR-ARFCN: 3650 MHz → 600000 + 650000/15 = 643333.33 → 30 kHz raster (even offset) 643334 = 3650.01 MHz.
    // SSB: (3650010 − 3000000)/1440 = 451.39 → N = 451 → SS_REF 3000 + 451·1.44 = 3649.44 MHz (570 kHz off; N = 452 is
    // 870 kHz off) → GSCN 7499 + 451 = 7950; absoluteFrequencySSB = 600000 + 649440/15 = 643296.
    // PCI: ring N_ID1 0–5 collide → N_ID1 6, N_ID2 by sector away from the facing first tier → 18, 19, 20.
    // PRACH (short format, 4 roots, no neighbour roots): 0, 10, 20.
    expect(res.nrCells).toEqual(
      AZ.map((az, i) => ({
        siteId: 'S0',
        gnbName: 'NR_S0',
        name: `S0_N78_${i + 1}`,
        status: 'planned',
        sector: i + 1,
        azimuth: az,
        cellLocalId: i + 1,
        band: 'n78',
        nrArfcn: 643334,
        dlFrequencyMHz: 3650.01,
        bandwidthMHz: 100,
        scsKHz: 30,
        ssbGscn: 7950,
        ssbNrArfcn: 643296,
        ssbFrequencyMHz: 3649.44,
        pci: 18 + i,
        pciGroup: 6,
        pciId: i,
        tac: 3001,
        prachRootSequence: 10 * i,
        prachRoots: [0, 1, 2, 3].map((r) => 10 * i + r),
        antenna: 'AIR3227/78',
        txRx: '32T32R',
      })),
    );
    const anchors = Object.fromEntries(res.anchors.map((a) => [a.cell, a]));
    // EARFCN → DL: 6300 → 791 + 0.1·150 = 806; 1575 → 1805 + 37.5 = 1842.5; 300 → 2110 + 30 = 2140.
    expect(anchors['S0_L800_2']).toMatchObject({
      band: 'L800',
      bandNumber: 20,
      sector: 2,
      earfcn: 6300,
      dlFrequencyMHz: 806,
      pci: 31,
      pciGroup: 10,
      pciId: 1,
      pciSource: 'existing',
    });
    expect(anchors['S0_L1800_2']).toMatchObject({ bandNumber: 3, earfcn: 1575, dlFrequencyMHz: 1842.5, pci: 100, pciSource: 'existing' });
    // S0_L2100_3 has no EARFCN in the dump: the operator's first L2100 EARFCN.
    expect(anchors['S0_L2100_3']).toMatchObject({ bandNumber: 1, earfcn: 300, dlFrequencyMHz: 2140, earfcnSource: 'operator' });
    // S0_L1800_1 has no PCI: LTE planning on 1575 — ring groups 0–5 collide; co-site 100 (mod 3 1) and 101 (mod 3 2)
    // leave N_ID2 0 → 18 = 3·6 + 0.
    expect(anchors['S0_L1800_1']).toMatchObject({ pci: 18, pciGroup: 6, pciId: 0, pciSource: 'planned' });
    expect(res.endcRelations).toHaveLength(9);
    expect(res.endcRelations.filter((r) => r.nrCell === 'S0_N78_2').map((r) => r.anchorCell)).toEqual(['S0_L800_2', 'S0_L1800_2', 'S0_L2100_2']);
    expect(res.x2Relations).toEqual([{ enbNode: 'S0', gnbNode: 'NR_S0' }]);
    expect(res.tac).toBe(3001);
    expect(res.problems).toEqual([]);
  });

  it("reports a chosen band the site lacks, keeps the site's LTE TAC over the operator's and uses the chosen antenna", () => {
    const res = planSiteParameters({
      site,
      siteCells: siteCells(),
      network: network(),
      antenna: 'AIR6488',
      lteBands: parseLteBands('L700,L800'),
      plan: { ...plan, tac: 5000, lte: { L800: [6200] } },
      options,
    });
    expect(res.txRx).toBe('64T64R');
    expect(res.nrCells.every((c) => c.tac === 3001 && c.txRx === '64T64R')).toBe(true);
    expect(res.tacSource).toBe('lte');
    expect(res.missingBands).toEqual(['L700']);
    expect(res.lteBands).toEqual(['L700', 'L800']);
    expect(res.anchors.map((a) => a.cell)).toEqual(['S0_L800_1', 'S0_L800_2', 'S0_L800_3']);
    expect(res.problems).toContainEqual({
      rule: 'LTE anchor band',
      siteId: 'S0',
      cell: null,
      detail: 'site S0 has no L700 (band 28) LTE cell: no EN-DC anchor on L700',
      verdict: 'WARNING',
    });
    expect(res.problems).toContainEqual({
      rule: 'Anchor EARFCN',
      siteId: 'S0',
      cell: 'S0_L800_1',
      detail: "EARFCN 6300 is not among the operator's L800 EARFCNs (6200)",
      verdict: 'WARNING',
    });
  });

  it('fails clearly when the site cannot be planned', () => {
    expect(() => planSiteParameters({ site: { ...site, lat: null }, siteCells: siteCells(), network: [], plan })).toThrow(/no coordinates/);
    const noAz = siteCells().map((c) => ({ ...c, azimuth: null }));
    expect(() => planSiteParameters({ site, siteCells: noAz, network: [], plan })).toThrow(/no cell with an azimuth/);
    expect(() => planSiteParameters({ site, siteCells: siteCells(), network: [], plan: { ...plan, nr: { centreMHz: 3780, bandwidthMHz: 100 } } })).toThrow(
      PlanningError,
    );
    expect(() => planSiteParameters({ site, siteCells: siteCells(), network: [], plan, antenna: 'AIR1234' })).toThrow(/unknown antenna/);
  });
});

describe('constants, sectors and TAC', () => {
  it('knows the antennas and LTE bands', () => {
    expect(antennaSpec('AIR3227/78')).toMatchObject({ tx: 32, rx: 32, band: 'n78' });
    expect(antennaSpec('AIR6488')).toMatchObject({ tx: 64, rx: 64, band: 'n78' });
    expect(parseLteBands('')).toEqual(['L800', 'L1800', 'L2100']);
    expect(parseLteBands(['l2100', 'L700'])).toEqual(['L700', 'L2100']);
    expect(() => parseLteBands('L2600')).toThrow(/unknown LTE band/);
  });

  it('derives sectors across north', () => {
    const cells = [350, 10, 0, 120, 124, 240, null].map((az, i) => ({ name: `c${i}`, azimuth: az }));
    // {350, 0, 10} → circular mean 0; {120, 124} → 122; {240}.
    expect(deriveSectors(cells).map((s) => [s.number, s.azimuth, s.cells])).toEqual([
      [1, 0, ['c0', 'c1', 'c2']],
      [2, 122, ['c3', 'c4']],
      [3, 240, ['c5']],
    ]);
  });

  it("follows the kept NR cells' TAC, else the most common LTE TAC, else the operator's", () => {
    const cells = [3001, 3002, 3002].map((tac, i) => cell({ name: `c${i}`, siteId: 'S0', tech: '4G', tac }));
    expect(chooseNrTac(cells)).toMatchObject({ tac: 3002, source: 'lte' });
    expect(chooseNrTac(cells).problem).toMatch(/2 TACs/);
    expect(chooseNrTac(cells, 7000)).toMatchObject({ tac: 3002, source: 'lte' });
    const nr = [5008, 5008].map((tac, i) => cell({ name: `n${i}`, siteId: 'S0', tech: '5G', nrTac: tac, tac }));
    expect(chooseNrTac(cells, 7000, nr)).toEqual({ tac: 5008, source: 'nr', problem: null });
    expect(chooseNrTac([], 7000)).toEqual({ tac: 7000, source: 'operator', problem: null });
    expect(chooseNrTac([])).toMatchObject({ tac: null, source: 'none' });
  });
});
