import type { RunSummaryItem } from '../contracts/runs';
import type { LteBandLabel, ParameterPlan } from '../domain/planning';
import type { RunSheet } from '../runs';

/**
 * A parameter plan as the run's workbook and page show it: one sheet per kind of object (NR cells, LTE
 * anchors, EN-DC relations, X2, the inputs as 'Parameters', and the planner's warnings as 'Problems'),
 * the verdict counts, and one sentence saying what was planned.
 */

export const PLANNING_SHEETS = ['NR Cells', 'LTE Anchors', 'EN-DC Relations', 'X2', 'Parameters', 'Problems'] as const;

export interface PlanContext {
  operator: string;
  /** The bands asked for; those the site lacks are `missingBands`. */
  requestedBands: readonly LteBandLabel[];
  missingBands: readonly LteBandLabel[];
  nrArfcn: number;
  nrBandwidthMhz: number;
  runBy: string;
  runDate: Date;
}

const col = (key: string, label: string) => ({ key, label });

export function planSheets(plan: ParameterPlan, context: PlanContext): RunSheet[] {
  const nrCells: RunSheet = {
    name: 'NR Cells',
    columns: [
      col('gnb', 'gNB'),
      col('cell', 'NR Cell'),
      col('sector', 'Sector'),
      col('azimuth', 'Azimuth (°)'),
      col('band', 'Band'),
      col('nrArfcn', 'NR-ARFCN'),
      col('dlMHz', 'DL Frequency (MHz)'),
      col('bandwidth', 'Bandwidth (MHz)'),
      col('scs', 'SCS (kHz)'),
      col('gscn', 'SSB GSCN'),
      col('ssbArfcn', 'absoluteFrequencySSB'),
      col('ssbMHz', 'SSB Frequency (MHz)'),
      col('pci', 'NR PCI'),
      col('nid1', 'N_ID1'),
      col('nid2', 'N_ID2'),
      col('tac', 'TAC'),
      col('prach', 'PRACH Root Sequence'),
      col('prachRoots', 'PRACH Roots Used'),
      col('antenna', 'Antenna'),
      col('txRx', 'TxRx'),
    ],
    rows: plan.nrCells.map((c) => ({
      gnb: plan.gnbName,
      cell: c.name,
      sector: c.sector,
      azimuth: c.azimuth,
      band: c.band,
      nrArfcn: c.nrArfcn,
      dlMHz: c.dlFrequencyMHz,
      bandwidth: c.bandwidthMHz,
      scs: c.scsKHz,
      gscn: c.ssbGscn,
      ssbArfcn: c.ssbNrArfcn,
      ssbMHz: c.ssbFrequencyMHz,
      pci: c.pci,
      nid1: c.pciGroup,
      nid2: c.pciId,
      tac: c.tac,
      prach: c.prachRootSequence,
      prachRoots: c.prachRoots.length === 0 ? null : `${c.prachRoots[0]}–${c.prachRoots[c.prachRoots.length - 1]}`,
      antenna: c.antenna,
      txRx: c.txRx,
    })),
  };
  const anchors: RunSheet = {
    name: 'LTE Anchors',
    columns: [
      col('cell', 'LTE Cell'),
      col('node', 'eNB'),
      col('band', 'Band'),
      col('bandNumber', 'E-UTRA Band'),
      col('sector', 'Sector'),
      col('azimuth', 'Azimuth (°)'),
      col('earfcn', 'EARFCN DL'),
      col('dlMHz', 'DL Frequency (MHz)'),
      col('earfcnSource', 'EARFCN From'),
      col('pci', 'LTE PCI'),
      col('group', 'PCI Group'),
      col('subCellId', 'Sub Cell Id'),
      col('pciSource', 'PCI From'),
    ],
    rows: plan.anchors.map((a) => ({
      cell: a.cell,
      node: a.nodeName,
      band: a.band,
      bandNumber: a.bandNumber,
      sector: a.sector,
      azimuth: a.azimuth,
      earfcn: a.earfcn,
      dlMHz: a.dlFrequencyMHz,
      earfcnSource: a.earfcnSource,
      pci: a.pci,
      group: a.pciGroup,
      subCellId: a.pciId,
      pciSource: a.pciSource,
    })),
  };
  const endc: RunSheet = {
    name: 'EN-DC Relations',
    columns: [col('anchor', 'LTE Anchor Cell'), col('band', 'Band'), col('nrCell', 'NR Cell'), col('sector', 'Sector')],
    rows: plan.endcRelations.map((r) => ({ anchor: r.anchorCell, band: r.band, nrCell: r.nrCell, sector: r.sector })),
  };
  const x2: RunSheet = {
    name: 'X2',
    columns: [col('enb', 'eNB'), col('gnb', 'gNB')],
    rows: plan.x2Relations.map((r) => ({ enb: r.enbNode, gnb: r.gnbNode })),
  };
  const parameter = (name: string, value: string | number | Date | null) => ({ parameter: name, value });
  const parameters: RunSheet = {
    name: 'Parameters',
    columns: [col('parameter', 'Parameter'), col('value', 'Value')],
    rows: [
      parameter('Site', plan.siteId),
      parameter('Site Name', plan.siteName),
      parameter('Antenna', plan.antenna),
      parameter('TxRx', plan.txRx),
      parameter('LTE Bands Requested', context.requestedBands.join(', ')),
      parameter('LTE Bands Missing On Site', context.missingBands.length === 0 ? 'none' : context.missingBands.join(', ')),
      parameter('Operator', context.operator),
      parameter('n78 Carrier NR-ARFCN', context.nrArfcn),
      parameter('n78 Carrier Bandwidth (MHz)', context.nrBandwidthMhz),
      parameter('gNB', plan.gnbName),
      parameter('TAC', plan.tac),
      parameter('Sectors', plan.sectors.map((s) => `${s.number}: ${s.azimuth}°`).join(', ')),
      parameter('Run By', context.runBy),
      parameter('Run Date', context.runDate),
    ],
  };
  const problems: RunSheet = {
    name: 'Problems',
    columns: [col('level', 'Level'), col('message', 'Message')],
    rows: plan.problems.map((p) => ({ level: p.level, message: p.message })),
  };
  return [nrCells, anchors, endc, x2, parameters, problems];
}

export function planSummary(plan: ParameterPlan, missingBands: readonly LteBandLabel[]): RunSummaryItem[] {
  const warnings = plan.problems.filter((p) => p.level === 'warning').length;
  // A missing band is already counted as missing; other errors (an anchor without EARFCN) are counted here.
  const errors = plan.problems.filter((p) => p.level === 'error').length - missingBands.length;
  return [
    { label: 'NR cells', count: plan.nrCells.length, tone: 'ok' },
    { label: 'LTE anchors', count: plan.anchors.length, tone: 'ok' },
    { label: 'EN-DC relations', count: plan.endcRelations.length, tone: 'ok' },
    { label: 'X2', count: plan.x2Relations.length, tone: 'info' },
    { label: 'Missing bands', count: missingBands.length, tone: missingBands.length > 0 ? 'warning' : 'ok' },
    { label: 'Warnings', count: warnings, tone: warnings > 0 ? 'warning' : 'ok' },
    ...(errors > 0 ? [{ label: 'Errors', count: errors, tone: 'error' as const }] : []),
  ];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "Parameter planning of LX0001 (AIR3227/78 on L800, L1800): 3 NR cells, 6 LTE anchors, 6 EN-DC relations, X2 to 1 eNB." plus the missing bands. */
export function planMessage(plan: ParameterPlan, missingBands: readonly LteBandLabel[]): string {
  const planned = plan.lteBands.filter((b) => !missingBands.includes(b));
  let text =
    `Parameter planning of ${plan.siteId} (${plan.antenna} on ${planned.join(', ')}): ${plural(plan.nrCells.length, 'NR cell')}, ` +
    `${plural(plan.anchors.length, 'LTE anchor')}, ${plural(plan.endcRelations.length, 'EN-DC relation')}, X2 to ${plural(plan.x2Relations.length, 'eNB')}.`;
  if (missingBands.length > 0) {
    text += ` ${plan.siteId} has no LTE cell on ${missingBands.join(', ')}: no anchor there.`;
  }
  return text;
}
