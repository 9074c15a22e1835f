import type { Cell, Site } from '../network/model';
import {
  antennaSpec,
  DEFAULT_ANTENNA,
  DEFAULT_LTE_BANDS,
  LTE_BAND_LABELS,
  LTE_BAND_NUMBERS,
  type AntennaSpec,
  type LteBandLabel,
  type PrachFormat,
} from './constants';
import { PlanningError } from './errors';
import { haversineKm } from './geo';
import type { PlacedCell } from './placed';
import { planPcis, type PciPlanOptions } from './pci';
import { planPrachRoots } from './prach';
import { bandOfEarfcn, chooseN78Ssb, earfcnToDlMHz, mhzToGscn, n78CarrierArfcn, nrArfcnToMHz, type NrScsKHz } from './raster';
import { deriveSectors, sectorOf, type Sector } from './sectors';
import { chooseNrTac, type TacChoice } from './tac';

/**
 * Parameter planning of 5G NR EN-DC sites (docs/engines/planning.md#parameter-planning-5g-nr-en-dc, issue 46): a pure function of the sites, their
 * surroundings, the cells earlier plans reserved and the operator plan. A run plans one site or a cluster;
 * each site's NR PCIs and PRACH roots are chosen against every NR cell within the reuse distance — the
 * inventory's, the reserved ones of earlier plans, and those planned for the run's earlier sites — so
 * neighbouring sites never collide or confuse, whether planned in one run or one by one.
 */

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
  /** NR TAC for a site that broadcasts none yet (the site's own NR or LTE TAC comes first). */
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
  /** gNB name of a site without NR (default `NR_<siteId>`); a site with NR keeps its gNB. */
  gnbName?: (siteId: string) => string;
  /** NR cell name of a sector (default `<siteId>_N78_<sector>`). */
  nrCellName?: (siteId: string, sector: number) => string;
  /** Azimuths within this of each other are one sector (default 20°). */
  sectorToleranceDeg?: number;
}

/** A cell an earlier plan reserved (not yet in the inventory): planned around like an inventory cell. */
export interface ReservedCell extends PlacedCell {
  runId: number;
}

export interface PlanningSite {
  site: Site;
  /** The site's existing cells, every technology. */
  siteCells: readonly Cell[];
}

export interface ClusterPlanningInput {
  /** The sites of the run, in the order they are planned (a site named twice is planned once). */
  sites: readonly PlanningSite[];
  /** Inventory cells around the sites, with positions (NR and LTE are used; everything else is ignored). */
  network: readonly PlacedCell[];
  /** Cells reserved by earlier plans; those of a site this run plans are superseded by it. */
  reserved?: readonly ReservedCell[];
  /** Defined neighbour lists by cell name (optional, for PCI confusion). */
  definedNeighbours?: ReadonlyMap<string, readonly string[]>;
  antenna?: string;
  lteBands?: readonly LteBandLabel[];
  plan: OperatorFrequencyPlan;
  /** Plan the NR cells a site already has anew (default false: they keep their NR-ARFCN, PCI and TAC). */
  replanExisting?: boolean;
  options?: ParameterPlanningOptions;
}

/** The one-site form of ClusterPlanningInput. */
export interface ParameterPlanningInput extends Omit<ClusterPlanningInput, 'sites'> {
  site: Site;
  siteCells: readonly Cell[];
}

/** planned: a new cell of this plan (reserved until a dump shows it); kept: an inventory cell the plan keeps as it is. */
export type NrCellStatus = 'planned' | 'kept';

export interface PlannedNrCell {
  siteId: string;
  gnbName: string;
  name: string;
  status: NrCellStatus;
  /** null: a kept cell without an azimuth on a site of several sectors. */
  sector: number | null;
  azimuth: number | null;
  /** NR cellLocalId: the sector number for a planned cell, the dump's for a kept one. */
  cellLocalId: number | null;
  band: 'n78';
  /** arfcnDL of the carrier. */
  nrArfcn: number;
  dlFrequencyMHz: number | null;
  /** Unknown (null) for a kept cell: the dump does not carry it. */
  bandwidthMHz: number | null;
  scsKHz: NrScsKHz | null;
  ssbGscn: number | null;
  /** absoluteFrequencySSB / ssbFrequency (NR-ARFCN). */
  ssbNrArfcn: number | null;
  ssbFrequencyMHz: number | null;
  pci: number;
  /** N_ID1. */
  pciGroup: number;
  /** N_ID2. */
  pciId: number;
  /** nRTAC. */
  tac: number | null;
  /** First logical root sequence index (prachRootSequenceIndex / rachRootSequence); null when the dump has none. */
  prachRootSequence: number | null;
  prachRoots: number[];
  /** The radio of a planned cell; null for a kept cell (its radio is what it is). */
  antenna: string | null;
  txRx: string | null;
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

/** An EN-DC relation to create: from the LTE anchor cell to the NR cell of its sector (status: whether that NR cell is new). */
export interface EndcRelation {
  anchorCell: string;
  anchorNode: string;
  nrCell: string;
  nrCellStatus: NrCellStatus;
  band: LteBandLabel;
  sector: number;
}

export interface X2Relation {
  enbNode: string;
  gnbNode: string;
}

export type ProblemVerdict = 'WARNING' | 'ERROR';

/** The rules a plan follows; a rule it could not meet is a Problems row naming one of these. */
export const PLANNING_RULES = {
  coordinates: 'Site coordinates',
  sectors: 'Sectors',
  carrier: 'NR carrier',
  ssb: 'SSB position',
  tac: 'TAC',
  band: 'LTE anchor band',
  earfcn: 'Anchor EARFCN',
  anchorSector: 'Anchor sector',
  nrPci: 'NR PCI collision / confusion',
  nrPciMod3: 'NR PCI mod 3',
  ltePci: 'LTE PCI collision / confusion',
  ltePciMod3: 'LTE PCI mod 3',
  prach: 'PRACH root sequence',
  kept: 'Kept NR cell',
} as const;
export type PlanningRule = (typeof PLANNING_RULES)[keyof typeof PLANNING_RULES];

export interface PlanningProblem {
  rule: PlanningRule;
  siteId: string;
  cell: string | null;
  detail: string;
  verdict: ProblemVerdict;
}

/** One site's plan. */
export interface ParameterPlan {
  siteId: string;
  siteName: string;
  lat: number;
  lon: number;
  antenna: string;
  txRx: string;
  lteBands: LteBandLabel[];
  /** Chosen bands the site has no LTE cell on (each one is a Problems row too). */
  missingBands: LteBandLabel[];
  /** The site's gNB: the existing one when the site has NR, else a new one. */
  gnbName: string;
  /** gNBId of the existing gNB; null for a new one. */
  gnbId: number | null;
  /** The carrier of the site's new NR cells: its kept cells' when it keeps some, else the operator's. */
  nrArfcn: number;
  nrArfcnSource: 'kept' | 'operator';
  tac: number | null;
  tacSource: TacChoice['source'];
  sectors: Sector[];
  /** Kept and planned, by sector. */
  nrCells: PlannedNrCell[];
  anchors: PlannedAnchor[];
  endcRelations: EndcRelation[];
  x2Relations: X2Relation[];
  problems: PlanningProblem[];
}

export interface UnplannedSite {
  siteId: string;
  siteName: string;
  rule: PlanningRule;
  reason: string;
}

/**
 * What a run planned, for the workbook, the reservations and the AMOS `cr` scripts: per site its NR cells
 * (status planned or kept, every attribute), LTE anchors, EN-DC relations and X2; the sites that could not
 * be planned; and every rule that could not be met.
 */
export interface ClusterPlan {
  antenna: string;
  txRx: string;
  lteBands: LteBandLabel[];
  replanExisting: boolean;
  sites: ParameterPlan[];
  unplanned: UnplannedSite[];
  /** Every site's problems in site order, then one ERROR per site not planned. */
  problems: PlanningProblem[];
}

/** A site-level failure: the rule it broke, so the Problems row can say which. */
export class SitePlanningError extends PlanningError {
  constructor(
    readonly rule: PlanningRule,
    message: string,
    readonly cell: string | null = null,
  ) {
    super(message);
  }
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

/** The most common value (ties: the lowest), or null. */
function mostCommon(values: readonly number[]): number | null {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return ranked[0]?.[0] ?? null;
}

/** Runs a step whose PlanningError means the site breaks `rule`. */
function under<T>(rule: PlanningRule, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof PlanningError && !(error instanceof SitePlanningError)) throw new SitePlanningError(rule, error.message);
    throw error;
  }
}

const safely = <T>(step: () => T): T | null => {
  try {
    return step();
  } catch {
    return null;
  }
};

interface SiteContext {
  antenna: AntennaSpec;
  lteBands: LteBandLabel[];
  plan: OperatorFrequencyPlan;
  options: ParameterPlanningOptions;
  replanExisting: boolean;
  /** NR cells to plan around: the inventory (less cells being replaced), reservations, the run's earlier sites. */
  nrNetwork: readonly PlacedCell[];
  lteNetwork: readonly PlacedCell[];
  definedNeighbours?: ReadonlyMap<string, readonly string[]>;
}

function planOneSite(site: Site, allSiteCells: readonly Cell[], ctx: SiteContext): ParameterPlan {
  const { antenna, plan, options: o } = ctx;
  if (site.lat === null || site.lon === null)
    throw new SitePlanningError(PLANNING_RULES.coordinates, `site ${site.id} has no coordinates: PCIs cannot be planned`);
  const position = { id: site.id, lat: site.lat, lon: site.lon };
  const problems: PlanningProblem[] = [];
  const problem = (rule: PlanningRule, cell: string | null, detail: string, verdict: ProblemVerdict = 'WARNING') =>
    problems.push({ rule, siteId: site.id, cell, detail, verdict });
  const siteCells = [...allSiteCells].filter((c) => c.siteId === site.id).sort(byName);

  // Sectors and their existing cells.
  const tolerance = o.sectorToleranceDeg ?? 20;
  const sectors = deriveSectors(siteCells, tolerance);
  if (sectors.length === 0) throw new SitePlanningError(PLANNING_RULES.sectors, `site ${site.id} has no cell with an azimuth: sectors cannot be derived`);
  const sectorOfCell = new Map<string, Sector>();
  for (const s of sectors) for (const n of s.cells) sectorOfCell.set(n, s);

  // The NR cells the site keeps: complete ones (carrier and PCI known), unless the planner replans them.
  const existingNr = siteCells.filter((c) => c.tech === '5G');
  const kept: Cell[] = [];
  if (!ctx.replanExisting) {
    for (const c of existingNr) {
      if (c.channel !== null && c.pci !== null) kept.push(c);
      else problem(PLANNING_RULES.kept, c.name, `NR cell ${c.name} has no ${c.channel === null ? 'NR-ARFCN' : 'PCI'} in the dump: its sector is planned anew`);
    }
  }
  const keptSector = new Map<string, number | null>();
  for (const c of kept) {
    const s = sectorOfCell.get(c.name) ?? sectorOf(sectors, c.azimuth, tolerance);
    keptSector.set(c.name, s?.number ?? null);
    if (!s) problem(PLANNING_RULES.kept, c.name, `kept NR cell ${c.name} has no azimuth, so no sector: no EN-DC relation planned to it`);
  }
  const keptSectors = new Set([...keptSector.values()].filter((n): n is number => n !== null));

  // Carrier, SSB and TAC of the new cells: those of the kept cells, else the operator's and the site's LTE TAC.
  const scs = plan.nr.scsKHz ?? 30;
  const keptArfcn = mostCommon(kept.map((c) => c.channel as number));
  const nrArfcn = keptArfcn ?? under(PLANNING_RULES.carrier, () => n78CarrierArfcn(plan.nr.centreMHz, plan.nr.bandwidthMHz, scs));
  const tac = chooseNrTac(siteCells, plan.tac, kept);
  if (tac.problem) problem(PLANNING_RULES.tac, null, tac.problem, tac.tac === null ? 'ERROR' : 'WARNING');

  const gnbName = existingNr[0]?.nodeName ?? o.gnbName?.(site.id) ?? `NR_${site.id}`;
  const gnbId = existingNr.find((c) => c.ownerId !== null)?.ownerId ?? null;

  // New cells: one per sector without a kept NR cell, named so as not to take a kept cell's name.
  const taken = new Set(kept.map((c) => c.name));
  const nameOf = o.nrCellName ?? ((id: string, sector: number) => `${id}_N78_${sector}`);
  const nrDraft = sectors
    .filter((s) => !keptSectors.has(s.number))
    .map((s) => {
      let name = nameOf(site.id, s.number);
      for (let k = 2; taken.has(name); k++) name = `${nameOf(site.id, s.number)}_${k}`;
      taken.add(name);
      return { name, azimuth: s.azimuth, channel: nrArfcn, sector: s.number };
    });

  const nrCells: PlannedNrCell[] = [];
  if (nrDraft.length > 0) {
    const keptSsb = mostCommon(kept.flatMap((c) => (c.channel === nrArfcn && c.ssb !== null ? [c.ssb] : [])));
    const ssb =
      keptSsb !== null
        ? { ssbNrArfcn: keptSsb, ssRefMHz: nrArfcnToMHz(keptSsb), gscn: safely(() => mhzToGscn(nrArfcnToMHz(keptSsb))) }
        : under(PLANNING_RULES.ssb, () => chooseN78Ssb(nrArfcnToMHz(nrArfcn), plan.nr.bandwidthMHz, scs));

    const nrPci = under(PLANNING_RULES.nrPci, () =>
      planPcis({ tech: 'NR', site: position, cells: nrDraft, network: ctx.nrNetwork, definedNeighbours: ctx.definedNeighbours, options: o.pci }),
    );
    for (const n of nrPci.notes) problem(PLANNING_RULES.nrPciMod3, n.cell, n.detail);

    // PRACH roots (n78 with 30 kHz SCS uses short formats by default).
    const prach = under(PLANNING_RULES.prach, () =>
      planPrachRoots({
        site: position,
        cells: nrDraft,
        network: ctx.nrNetwork,
        options: {
          format: o.prach?.format ?? 'short',
          rootsPerCell: o.prach?.rootsPerCell ?? 4,
          neighbourRootsPerCell: o.prach?.neighbourRootsPerCell,
          minSpacing: o.prach?.minSpacing,
          reuseDistanceKm: o.prach?.reuseDistanceKm ?? o.pci?.neighbourDistanceKm ?? 2,
        },
      }),
    );
    nrDraft.forEach((d, i) => {
      const p = nrPci.assignments[i];
      const r = prach[i];
      if (!p || !r) throw new PlanningError(`internal: no PCI or PRACH plan for ${d.name}`);
      nrCells.push({
        siteId: site.id,
        gnbName,
        name: d.name,
        status: 'planned',
        sector: d.sector,
        azimuth: d.azimuth,
        cellLocalId: d.sector,
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
      });
    });
  }

  // Kept cells as they are; one whose PCI collides with a co-channel cell within the reuse distance is said so.
  const reuseKm = o.pci?.reuseDistanceKm ?? 5;
  for (const c of kept) {
    const pci = c.pci as number;
    const channel = c.channel as number;
    const ssbMHz = c.ssb === null ? null : safely(() => nrArfcnToMHz(c.ssb as number));
    nrCells.push({
      siteId: site.id,
      gnbName,
      name: c.name,
      status: 'kept',
      sector: keptSector.get(c.name) ?? null,
      azimuth: c.azimuth,
      cellLocalId: c.cellId,
      band: 'n78',
      nrArfcn: channel,
      dlFrequencyMHz: safely(() => nrArfcnToMHz(channel)),
      bandwidthMHz: null,
      scsKHz: null,
      ssbGscn: ssbMHz === null ? null : safely(() => mhzToGscn(ssbMHz)),
      ssbNrArfcn: c.ssb,
      ssbFrequencyMHz: ssbMHz,
      pci,
      pciGroup: Math.floor(pci / 3),
      pciId: pci % 3,
      tac: c.nrTac ?? c.tac,
      prachRootSequence: c.rachRootSequence,
      prachRoots: [],
      antenna: null,
      txRx: null,
    });
    const clash = ctx.nrNetwork
      .filter((x) => x.siteId !== site.id && x.pci === pci && (x.channel === null || x.channel === channel))
      .map((x) => ({ x, km: haversineKm(position, x) }))
      .filter((d) => d.km <= reuseKm)
      .sort((a, b) => a.km - b.km || byName(a.x, b.x))[0];
    if (clash) {
      problem(
        PLANNING_RULES.nrPci,
        c.name,
        `kept NR cell ${c.name} (PCI ${pci}) collides with ${clash.x.name} ${clash.km.toFixed(2)} km away on NR-ARFCN ${channel}: replan the site's NR cells to fix it`,
      );
    }
  }
  nrCells.sort((a, b) => (a.sector ?? Infinity) - (b.sector ?? Infinity) || byName(a, b));
  const nrBySector = new Map<number, PlannedNrCell[]>();
  for (const c of nrCells) if (c.sector !== null) nrBySector.set(c.sector, [...(nrBySector.get(c.sector) ?? []), c]);

  // LTE anchors per chosen band.
  const anchors: PlannedAnchor[] = [];
  const missingBands: LteBandLabel[] = [];
  const ltePlanNeeded: { anchor: PlannedAnchor; azimuth: number | null }[] = [];
  for (const band of ctx.lteBands) {
    const bandNumber = LTE_BAND_NUMBERS[band];
    const cells = siteCells.filter((c) => c.tech === '4G' && lteLabelOf(c) === band);
    if (cells.length === 0) {
      missingBands.push(band);
      continue;
    }
    const owned = plan.lte?.[band];
    for (const c of cells) {
      let earfcn = c.channel;
      let earfcnSource: PlannedAnchor['earfcnSource'] = 'existing';
      if (earfcn === null) {
        earfcn = owned?.[0] ?? null;
        earfcnSource = earfcn === null ? 'none' : 'operator';
        if (earfcn === null) problem(PLANNING_RULES.earfcn, c.name, `no EARFCN in the dump and none for ${band} in the operator plan`, 'ERROR');
      } else if (owned && owned.length > 0 && !owned.includes(earfcn)) {
        problem(PLANNING_RULES.earfcn, c.name, `EARFCN ${earfcn} is not among the operator's ${band} EARFCNs (${owned.join(', ')})`);
      }
      let dl: number | null = null;
      if (earfcn !== null) {
        try {
          dl = earfcnToDlMHz(bandNumber, earfcn);
        } catch (e) {
          problem(PLANNING_RULES.earfcn, c.name, (e as Error).message, 'ERROR');
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
      if (!sector) problem(PLANNING_RULES.anchorSector, c.name, 'no azimuth, so no sector: no EN-DC relation planned from it');
      if (c.pci === null) ltePlanNeeded.push({ anchor, azimuth: c.azimuth });
      anchors.push(anchor);
    }
  }
  if (anchors.length === 0) {
    throw new SitePlanningError(
      PLANNING_RULES.band,
      `site ${site.id} has no LTE cell on ${ctx.lteBands.join(', ')}: there is nothing to anchor the NR cells on`,
    );
  }
  for (const band of missingBands) {
    problem(PLANNING_RULES.band, null, `site ${site.id} has no ${band} (band ${LTE_BAND_NUMBERS[band]}) LTE cell: no EN-DC anchor on ${band}`);
  }

  // Anchor PCIs the dump lacks: LTE PCI = 3·group + subCellId, same rules, per EARFCN.
  const byEarfcn = new Map<number | null, typeof ltePlanNeeded>();
  for (const a of ltePlanNeeded) byEarfcn.set(a.anchor.earfcn, [...(byEarfcn.get(a.anchor.earfcn) ?? []), a]);
  for (const [earfcn, group] of [...byEarfcn].sort((a, b) => (a[0] ?? -1) - (b[0] ?? -1))) {
    const res = under(PLANNING_RULES.ltePci, () =>
      planPcis({
        tech: 'LTE',
        site: position,
        cells: group.map((g) => ({ name: g.anchor.cell, azimuth: g.azimuth, channel: earfcn })),
        network: ctx.lteNetwork,
        definedNeighbours: ctx.definedNeighbours,
        options: o.pci,
      }),
    );
    for (const n of res.notes) problem(PLANNING_RULES.ltePciMod3, n.cell, n.detail);
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
    for (const nr of a.sector === null ? [] : (nrBySector.get(a.sector) ?? [])) {
      endcRelations.push({ anchorCell: a.cell, anchorNode: a.nodeName, nrCell: nr.name, nrCellStatus: nr.status, band: a.band, sector: a.sector as number });
    }
  }
  const x2Relations = [...new Set(anchors.map((a) => a.nodeName))].sort().map((enbNode) => ({ enbNode, gnbNode: gnbName }));

  return {
    siteId: site.id,
    siteName: site.name,
    lat: site.lat,
    lon: site.lon,
    antenna: antenna.name,
    txRx: antenna.txRx,
    lteBands: ctx.lteBands,
    missingBands,
    gnbName,
    gnbId,
    nrArfcn,
    nrArfcnSource: keptArfcn === null ? 'operator' : 'kept',
    tac: tac.tac,
    tacSource: tac.source,
    sectors,
    nrCells,
    anchors,
    endcRelations,
    x2Relations,
    problems,
  };
}

/** A planned NR cell as the next sites of the run (and later runs, once reserved) see it. */
export function placedOf(cell: PlannedNrCell, at: { lat: number; lon: number }): PlacedCell {
  return {
    name: cell.name,
    siteId: cell.siteId,
    tech: '5G',
    lat: at.lat,
    lon: at.lon,
    azimuth: cell.azimuth,
    channel: cell.nrArfcn,
    pci: cell.pci,
    rachRootSequence: cell.prachRootSequence,
  };
}

/**
 * Plans the sites of a run one after the other, each against the inventory, the reservations of earlier
 * plans and the cells planned for the run's earlier sites. A site that cannot be planned (no coordinates,
 * no azimuths, no anchor band, no PCI or PRACH root left) is left out with an ERROR problem and the
 * others are still planned. Throws PlanningError only for what spoils every site (an unknown antenna).
 */
export function planCluster(input: ClusterPlanningInput): ClusterPlan {
  const antenna = antennaSpec(input.antenna ?? DEFAULT_ANTENNA);
  const lteBands = LTE_BAND_LABELS.filter((b) => (input.lteBands ?? DEFAULT_LTE_BANDS).includes(b));
  const replanExisting = input.replanExisting ?? false;
  const seen = new Set<string>();
  const sites = input.sites.filter((s) => !seen.has(s.site.id) && seen.add(s.site.id));

  const inventoryNr = input.network.filter((c) => c.tech === '5G');
  const lteNetwork = input.network.filter((c) => c.tech === '4G');
  const reserved = input.reserved ?? [];
  /** Sites of this run planned so far: their new cells stand for their reservations and (when replanned) their inventory NR cells. */
  const done = new Set<string>();
  const inRun: PlacedCell[] = [];
  const plans: ParameterPlan[] = [];
  const unplanned: UnplannedSite[] = [];
  const problems: PlanningProblem[] = [];

  for (const { site, siteCells } of sites) {
    const superseded = (siteId: string) => siteId === site.id || done.has(siteId);
    const nrNetwork = [...inventoryNr.filter((c) => !(replanExisting && superseded(c.siteId))), ...reserved.filter((c) => !superseded(c.siteId)), ...inRun];
    try {
      const plan = planOneSite(site, siteCells, {
        antenna,
        lteBands,
        plan: input.plan,
        options: input.options ?? {},
        replanExisting,
        nrNetwork,
        lteNetwork,
        definedNeighbours: input.definedNeighbours,
      });
      plans.push(plan);
      problems.push(...plan.problems);
      done.add(site.id);
      for (const c of plan.nrCells) if (c.status === 'planned') inRun.push(placedOf(c, plan));
    } catch (error) {
      if (!(error instanceof PlanningError)) throw error;
      const rule = error instanceof SitePlanningError ? error.rule : PLANNING_RULES.nrPci;
      unplanned.push({ siteId: site.id, siteName: site.name, rule, reason: error.message });
      problems.push({ rule, siteId: site.id, cell: error instanceof SitePlanningError ? error.cell : null, detail: error.message, verdict: 'ERROR' });
    }
  }
  return { antenna: antenna.name, txRx: antenna.txRx, lteBands, replanExisting, sites: plans, unplanned, problems };
}

/**
 * Plans the NR cells of one site (one per sector without a kept NR cell, sectors from the existing cells'
 * azimuths), its LTE anchors on the chosen bands, the EN-DC relations (anchor → the NR cells of its sector)
 * and an X2 per anchor node. Throws PlanningError when the site cannot be planned at all.
 */
export function planSiteParameters(input: ParameterPlanningInput): ParameterPlan {
  const { site, siteCells, ...rest } = input;
  const result = planCluster({ ...rest, sites: [{ site, siteCells }] });
  const failed = result.unplanned[0];
  if (failed) throw new SitePlanningError(failed.rule, failed.reason);
  return result.sites[0] as ParameterPlan;
}

/** The cells a plan adds to the network (its reservations): every planned (not kept) NR cell, with its site's position. */
export function plannedCellsOf(plan: ClusterPlan): Array<PlannedNrCell & { lat: number; lon: number }> {
  return plan.sites.flatMap((s) => s.nrCells.filter((c) => c.status === 'planned').map((c) => ({ ...c, lat: s.lat, lon: s.lon })));
}
