import type { Cell, Site } from '../network/model';
import { antennaSpec, DEFAULT_ANTENNA, DEFAULT_LTE_BANDS, LTE_BAND_LABELS, LTE_BAND_NUMBERS, type LteBandLabel, type PrachFormat } from './constants';
import { PlanningError } from './errors';
import type { PlacedCell } from './placed';
import { planPcis, type PciPlanOptions } from './pci';
import { planPrachRoots } from './prach';
import { bandOfEarfcn, chooseN78Ssb, earfcnToDlMHz, n78CarrierArfcn, nrArfcnToMHz, type NrScsKHz } from './raster';
import { deriveSectors, type Sector } from './sectors';
import { chooseNrTac } from './tac';

/** Parameter planning of a 5G NR EN-DC site (DESIGN §7.4): a pure function of the site, its surroundings and the operator plan. */

export interface OperatorFrequencyPlan {
  operator?: string;
  nr: {
    /** Centre of the operator's n78 block, MHz. */
    centreMHz: number;
    bandwidthMHz: number;
    /** Carrier SCS (default 30 kHz). */
    scsKHz?: NrScsKHz;
  };
  /** DL EARFCNs the operator owns per band; an anchor's EARFCN is checked against these, and a cell without one takes the first. */
  lte?: Partial<Record<LteBandLabel, readonly number[]>>;
  /** NR TAC; absent → the site's LTE TAC (EN-DC). */
  tac?: number | null;
}

export interface ParameterPlanningOptions {
  pci?: PciPlanOptions;
  prach?: {
    format?: PrachFormat;
    /** Root sequences each NR cell needs (default 4). */
    rootsPerCell?: number;
    neighbourRootsPerCell?: number;
    minSpacing?: number;
    reuseDistanceKm?: number;
  };
  /** gNB name (default `NR_<siteId>`). */
  gnbName?: string;
  /** NR cell name of a sector (default `<siteId>_N78_<sector>`). */
  nrCellName?: (siteId: string, sector: number) => string;
  /** Azimuths within this of each other are one sector (default 20°). */
  sectorToleranceDeg?: number;
}

export interface ParameterPlanningInput {
  site: Site;
  /** The site's existing cells, every technology. */
  siteCells: readonly Cell[];
  /** Cells of the network with positions (NR and LTE are used; everything else is ignored). */
  network: readonly PlacedCell[];
  /** Defined neighbour lists by cell name (optional, for PCI confusion). */
  definedNeighbours?: ReadonlyMap<string, readonly string[]>;
  antenna?: string;
  lteBands?: readonly LteBandLabel[];
  plan: OperatorFrequencyPlan;
  options?: ParameterPlanningOptions;
}

export interface PlannedNrCell {
  name: string;
  sector: number;
  azimuth: number;
  band: 'n78';
  nrArfcn: number;
  dlFrequencyMHz: number;
  bandwidthMHz: number;
  scsKHz: NrScsKHz;
  ssbGscn: number;
  ssbNrArfcn: number;
  ssbFrequencyMHz: number;
  pci: number;
  /** N_ID1. */
  pciGroup: number;
  /** N_ID2. */
  pciId: number;
  tac: number | null;
  prachRootSequence: number;
  prachRoots: number[];
  antenna: string;
  txRx: string;
}

export interface PlannedAnchor {
  cell: string;
  nodeName: string;
  band: LteBandLabel;
  bandNumber: number;
  sector: number | null;
  azimuth: number | null;
  earfcn: number | null;
  dlFrequencyMHz: number | null;
  earfcnSource: 'existing' | 'operator' | 'none';
  pci: number | null;
  pciGroup: number | null;
  pciId: number | null;
  pciSource: 'existing' | 'planned' | 'none';
}

export interface EndcRelation {
  anchorCell: string;
  nrCell: string;
  band: LteBandLabel;
  sector: number;
}

export interface X2Relation {
  enbNode: string;
  gnbNode: string;
}

export interface PlanningProblem {
  level: 'error' | 'warning';
  message: string;
}

export interface ParameterPlan {
  siteId: string;
  siteName: string;
  antenna: string;
  txRx: string;
  lteBands: LteBandLabel[];
  gnbName: string;
  tac: number | null;
  sectors: Sector[];
  nrCells: PlannedNrCell[];
  anchors: PlannedAnchor[];
  endcRelations: EndcRelation[];
  x2Relations: X2Relation[];
  problems: PlanningProblem[];
}

function lteLabelOf(cell: Cell): LteBandLabel | null {
  if (cell.band !== null && (LTE_BAND_LABELS as readonly string[]).includes(cell.band)) return cell.band as LteBandLabel;
  if (cell.band === null && cell.channel !== null) {
    const n = bandOfEarfcn(cell.channel);
    const label = LTE_BAND_LABELS.find((l) => LTE_BAND_NUMBERS[l] === n);
    if (label) return label;
  }
  return null;
}

const byName = <T extends { name: string }>(a: T, b: T): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Plans the NR cells of a site (one per sector, sectors from the existing cells' azimuths), their LTE anchors
 * on the chosen bands, the EN-DC relations (anchor → the NR cell of its sector) and an X2 per anchor node.
 * Throws PlanningError when the site cannot be planned at all (no coordinates, no azimuths, no PCI / PRACH
 * root left, carrier outside n78); a missing anchor band or a TAC doubt is a problem in the result.
 */
export function planSiteParameters(input: ParameterPlanningInput): ParameterPlan {
  const { site, plan } = input;
  const o = input.options ?? {};
  const antenna = antennaSpec(input.antenna ?? DEFAULT_ANTENNA);
  const lteBands = LTE_BAND_LABELS.filter((b) => (input.lteBands ?? DEFAULT_LTE_BANDS).includes(b));
  if (site.lat === null || site.lon === null) throw new PlanningError(`site ${site.id} has no coordinates: PCIs cannot be planned`);
  const position = { id: site.id, lat: site.lat, lon: site.lon };
  const problems: PlanningProblem[] = [];
  const siteCells = [...input.siteCells].filter((c) => c.siteId === site.id).sort(byName);

  // Sectors and their existing cells.
  const tolerance = o.sectorToleranceDeg ?? 20;
  const sectors = deriveSectors(siteCells, tolerance);
  if (sectors.length === 0) throw new PlanningError(`site ${site.id} has no cell with an azimuth: sectors cannot be derived`);
  const sectorOfCell = new Map<string, Sector>();
  for (const s of sectors) for (const n of s.cells) sectorOfCell.set(n, s);

  // NR carrier, SSB, TAC.
  const scs = plan.nr.scsKHz ?? 30;
  const nrArfcn = n78CarrierArfcn(plan.nr.centreMHz, plan.nr.bandwidthMHz, scs);
  const ssb = chooseN78Ssb(nrArfcnToMHz(nrArfcn), plan.nr.bandwidthMHz, scs);
  const tac = chooseNrTac(siteCells, plan.tac);
  if (tac.problem) problems.push({ level: tac.tac === null ? 'error' : 'warning', message: tac.problem });

  const nameOf = o.nrCellName ?? ((id: string, sector: number) => `${id}_N78_${sector}`);
  const nrDraft = sectors.map((s) => ({ name: nameOf(site.id, s.number), azimuth: s.azimuth, channel: nrArfcn, sector: s.number }));

  // NR PCIs.
  const nrNetwork = input.network.filter((c) => c.tech === '5G');
  const nrPci = planPcis({ tech: 'NR', site: position, cells: nrDraft, network: nrNetwork, definedNeighbours: input.definedNeighbours, options: o.pci });
  for (const w of nrPci.warnings) problems.push({ level: 'warning', message: w });

  // PRACH roots (n78 with 30 kHz SCS uses short formats by default).
  const prach = planPrachRoots({
    site: position,
    cells: nrDraft,
    network: nrNetwork,
    options: {
      format: o.prach?.format ?? 'short',
      rootsPerCell: o.prach?.rootsPerCell ?? 4,
      neighbourRootsPerCell: o.prach?.neighbourRootsPerCell,
      minSpacing: o.prach?.minSpacing,
      reuseDistanceKm: o.prach?.reuseDistanceKm ?? o.pci?.neighbourDistanceKm ?? 2,
    },
  });

  const nrCells: PlannedNrCell[] = nrDraft.map((d, i) => {
    const p = nrPci.assignments[i];
    const r = prach[i];
    if (!p || !r) throw new PlanningError(`internal: no PCI or PRACH plan for ${d.name}`);
    return {
      name: d.name,
      sector: d.sector,
      azimuth: d.azimuth,
      band: 'n78',
      nrArfcn,
      dlFrequencyMHz: nrArfcnToMHz(nrArfcn),
      bandwidthMHz: plan.nr.bandwidthMHz,
      scsKHz: scs,
      ssbGscn: ssb.gscn,
      ssbNrArfcn: ssb.ssbNrArfcn,
      ssbFrequencyMHz: ssb.ssRefMHz,
      pci: p.pci,
      pciGroup: p.group,
      pciId: p.id,
      tac: tac.tac,
      prachRootSequence: r.rootSequence,
      prachRoots: r.roots,
      antenna: antenna.name,
      txRx: antenna.txRx,
    };
  });
  const nrBySector = new Map(nrCells.map((c) => [c.sector, c]));

  // LTE anchors per chosen band.
  const anchors: PlannedAnchor[] = [];
  const ltePlanNeeded: { anchor: PlannedAnchor; azimuth: number | null }[] = [];
  for (const band of lteBands) {
    const bandNumber = LTE_BAND_NUMBERS[band];
    const cells = siteCells.filter((c) => c.tech === '4G' && lteLabelOf(c) === band);
    if (cells.length === 0) {
      problems.push({ level: 'error', message: `site ${site.id} has no ${band} (band ${bandNumber}) LTE cell: no EN-DC anchor on ${band}` });
      continue;
    }
    const owned = plan.lte?.[band];
    for (const c of cells) {
      let earfcn = c.channel;
      let earfcnSource: PlannedAnchor['earfcnSource'] = 'existing';
      if (earfcn === null) {
        earfcn = owned?.[0] ?? null;
        earfcnSource = earfcn === null ? 'none' : 'operator';
        if (earfcn === null) problems.push({ level: 'error', message: `${c.name}: no EARFCN in the dump and none for ${band} in the operator plan` });
      } else if (owned && owned.length > 0 && !owned.includes(earfcn)) {
        problems.push({ level: 'warning', message: `${c.name}: EARFCN ${earfcn} is not among the operator's ${band} EARFCNs (${owned.join(', ')})` });
      }
      let dl: number | null = null;
      if (earfcn !== null) {
        try {
          dl = earfcnToDlMHz(bandNumber, earfcn);
        } catch (e) {
          problems.push({ level: 'error', message: `${c.name}: ${(e as Error).message}` });
        }
      }
      const sector = sectorOfCell.get(c.name) ?? (sectors.length === 1 ? sectors[0] : undefined);
      const anchor: PlannedAnchor = {
        cell: c.name,
        nodeName: c.nodeName,
        band,
        bandNumber,
        sector: sector?.number ?? null,
        azimuth: c.azimuth,
        earfcn,
        dlFrequencyMHz: dl,
        earfcnSource,
        pci: c.pci,
        pciGroup: c.pci === null ? null : Math.floor(c.pci / 3),
        pciId: c.pci === null ? null : c.pci % 3,
        pciSource: c.pci === null ? 'none' : 'existing',
      };
      if (!sector) problems.push({ level: 'warning', message: `${c.name}: no azimuth, so no sector: no EN-DC relation planned from it` });
      if (c.pci === null) ltePlanNeeded.push({ anchor, azimuth: c.azimuth });
      anchors.push(anchor);
    }
  }

  // Anchor PCIs the dump lacks: LTE PCI = 3·group + subCellId, same rules, per EARFCN.
  const lteNetwork = input.network.filter((c) => c.tech === '4G');
  const byEarfcn = new Map<number | null, typeof ltePlanNeeded>();
  for (const a of ltePlanNeeded) byEarfcn.set(a.anchor.earfcn, [...(byEarfcn.get(a.anchor.earfcn) ?? []), a]);
  for (const [earfcn, group] of [...byEarfcn].sort((a, b) => (a[0] ?? -1) - (b[0] ?? -1))) {
    const res = planPcis({
      tech: 'LTE',
      site: position,
      cells: group.map((g) => ({ name: g.anchor.cell, azimuth: g.azimuth, channel: earfcn })),
      network: lteNetwork,
      definedNeighbours: input.definedNeighbours,
      options: o.pci,
    });
    for (const w of res.warnings) problems.push({ level: 'warning', message: w });
    res.assignments.forEach((p, i) => {
      const a = (group[i] as (typeof group)[number]).anchor;
      a.pci = p.pci;
      a.pciGroup = p.group;
      a.pciId = p.id;
      a.pciSource = 'planned';
    });
  }

  const endcRelations: EndcRelation[] = [];
  for (const a of anchors) {
    const nr = a.sector === null ? undefined : nrBySector.get(a.sector);
    if (nr) endcRelations.push({ anchorCell: a.cell, nrCell: nr.name, band: a.band, sector: nr.sector });
  }
  const gnbName = o.gnbName ?? `NR_${site.id}`;
  const x2Relations = [...new Set(anchors.map((a) => a.nodeName))].sort().map((enbNode) => ({ enbNode, gnbNode: gnbName }));

  return {
    siteId: site.id,
    siteName: site.name,
    antenna: antenna.name,
    txRx: antenna.txRx,
    lteBands,
    gnbName,
    tac: tac.tac,
    sectors,
    nrCells,
    anchors,
    endcRelations,
    x2Relations,
    problems,
  };
}
