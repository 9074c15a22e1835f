import type { RunSummaryItem } from 'contracts';
import type { ClusterPlan, LteBandLabel } from '../domain/planning';
import type { RunSheet } from '../runs';

/**
 * A run's plan as its workbook and page show it: one sheet per kind of object (NR cells — planned or kept —,
 * LTE anchors, EN-DC relations, X2), the sites and how each was planned, the inputs as 'Parameters', and
 * every rule that could not be met as 'Problems' (rule, site, cell, detail, verdict). The summary counts
 * the Problems rows, so 'Warnings: 0' is said only when there is none.
 */

export const PLANNING_SHEETS = ['NR Cells', 'LTE Anchors', 'EN-DC Relations', 'X2', 'Sites', 'Parameters', 'Problems'] as const;
/** The sheets the page lists, in the order it offers them ('Parameters' are the inputs, not findings). */
export const PLANNING_FINDINGS = ['NR Cells', 'Problems', 'Sites', 'LTE Anchors', 'EN-DC Relations', 'X2'] as const;

export const NR_CELL_STATUS = { planned: 'Planned', kept: 'Kept (inventory)' } as const;

export interface PlanContext {
  operator: string;
  /** The bands asked for. */
  requestedBands: readonly LteBandLabel[];
  nrArfcn: number;
  nrBandwidthMhz: number;
  runBy: string;
  runDate: Date;
}

const col = (key: string, label: string) => ({ key, label });

export function planSheets(plan: ClusterPlan, context: PlanContext): RunSheet[] {
  const nrCells: RunSheet = {
    name: 'NR Cells',
    columns: [
      col('site', 'Site'),
      col('gnb', 'gNB'),
      col('cell', 'NR Cell'),
      col('nrStatus', 'Planned / Kept'),
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
    rows: plan.sites.flatMap((s) =>
      s.nrCells.map((c) => ({
        site: s.siteId,
        gnb: c.gnbName,
        cell: c.name,
        nrStatus: NR_CELL_STATUS[c.status],
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
    ),
  };
  const anchors: RunSheet = {
    name: 'LTE Anchors',
    columns: [
      col('site', 'Site'),
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
    rows: plan.sites.flatMap((s) =>
      s.anchors.map((a) => ({
        site: s.siteId,
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
    ),
  };
  const endc: RunSheet = {
    name: 'EN-DC Relations',
    columns: [
      col('site', 'Site'),
      col('anchor', 'LTE Anchor Cell'),
      col('band', 'Band'),
      col('nrCell', 'NR Cell'),
      col('nrStatus', 'NR Cell Is'),
      col('sector', 'Sector'),
    ],
    rows: plan.sites.flatMap((s) =>
      s.endcRelations.map((r) => ({
        site: s.siteId,
        anchor: r.anchorCell,
        band: r.band,
        nrCell: r.nrCell,
        nrStatus: NR_CELL_STATUS[r.nrCellStatus],
        sector: r.sector,
      })),
    ),
  };
  const x2: RunSheet = {
    name: 'X2',
    columns: [col('enb', 'eNB'), col('gnb', 'gNB')],
    rows: plan.sites.flatMap((s) => s.x2Relations.map((r) => ({ enb: r.enbNode, gnb: r.gnbNode }))),
  };
  const sites: RunSheet = {
    name: 'Sites',
    columns: [
      col('site', 'Site'),
      col('siteName', 'Site Name'),
      col('outcome', 'Outcome'),
      col('gnb', 'gNB'),
      col('nrArfcn', 'NR-ARFCN'),
      col('nrArfcnFrom', 'NR-ARFCN From'),
      col('tac', 'TAC'),
      col('tacFrom', 'TAC From'),
      col('sectors', 'Sectors'),
      col('planned', 'NR Cells Planned'),
      col('kept', 'NR Cells Kept'),
      col('missingBands', 'LTE Bands Missing'),
    ],
    rows: [
      ...plan.sites.map((s) => ({
        site: s.siteId,
        siteName: s.siteName,
        outcome: 'Planned',
        gnb: s.gnbName,
        nrArfcn: s.nrArfcn,
        nrArfcnFrom: s.nrArfcnSource === 'kept' ? 'kept NR cells' : 'operator plan',
        tac: s.tac,
        tacFrom: TAC_FROM[s.tacSource],
        sectors: s.sectors.map((x) => `${x.number}: ${x.azimuth}°`).join(', '),
        planned: s.nrCells.filter((c) => c.status === 'planned').length,
        kept: s.nrCells.filter((c) => c.status === 'kept').length,
        missingBands: s.missingBands.length === 0 ? 'none' : s.missingBands.join(', '),
      })),
      ...plan.unplanned.map((u) => ({ site: u.siteId, siteName: u.siteName, outcome: `Not planned: ${u.reason}` })),
    ],
  };
  const parameter = (name: string, value: string | number | Date | null) => ({ parameter: name, value });
  const parameters: RunSheet = {
    name: 'Parameters',
    columns: [col('parameter', 'Parameter'), col('value', 'Value')],
    rows: [
      parameter('Sites', [...plan.sites.map((s) => s.siteId), ...plan.unplanned.map((u) => u.siteId)].join(', ')),
      parameter('Antenna', plan.antenna),
      parameter('TxRx', plan.txRx),
      parameter('LTE Bands Requested', context.requestedBands.join(', ')),
      parameter('Replan Existing NR Cells', plan.replanExisting ? 'yes' : 'no'),
      parameter('Operator', context.operator),
      parameter('n78 Carrier NR-ARFCN', context.nrArfcn),
      parameter('n78 Carrier Bandwidth (MHz)', context.nrBandwidthMhz),
      parameter('Run By', context.runBy),
      parameter('Run Date', context.runDate),
    ],
  };
  const problems: RunSheet = {
    name: 'Problems',
    columns: [col('verdict', 'Verdict'), col('rule', 'Rule'), col('site', 'Site'), col('cell', 'Cell'), col('detail', 'Detail')],
    rows: plan.problems.map((p) => ({ verdict: p.verdict, rule: p.rule, site: p.siteId, cell: p.cell, detail: p.detail })),
  };
  return [nrCells, anchors, endc, x2, sites, parameters, problems];
}

const TAC_FROM = { nr: 'kept NR cells', lte: 'LTE cells', operator: 'operator plan', none: 'none' } as const;

/** The sheets the page lists, in its order. */
export function planFindings(sheets: readonly RunSheet[]): RunSheet[] {
  return PLANNING_FINDINGS.map((name) => sheets.find((s) => s.name === name)).filter((s): s is RunSheet => s !== undefined);
}

/** Counts of the plan; Warnings and Errors are the Problems rows of each verdict. */
export function planSummary(plan: ClusterPlan): RunSummaryItem[] {
  const nr = plan.sites.flatMap((s) => s.nrCells);
  const planned = nr.filter((c) => c.status === 'planned').length;
  const kept = nr.length - planned;
  const missingBands = plan.sites.reduce((n, s) => n + s.missingBands.length, 0);
  const warnings = plan.problems.filter((p) => p.verdict === 'WARNING').length;
  const errors = plan.problems.filter((p) => p.verdict === 'ERROR').length;
  return [
    ...(plan.sites.length + plan.unplanned.length > 1 ? [{ label: 'Sites', count: plan.sites.length, tone: 'ok' as const }] : []),
    { label: 'NR cells', count: planned, tone: 'ok' },
    { label: 'NR cells kept', count: kept, tone: 'info' },
    { label: 'LTE anchors', count: plan.sites.reduce((n, s) => n + s.anchors.length, 0), tone: 'ok' },
    { label: 'EN-DC relations', count: plan.sites.reduce((n, s) => n + s.endcRelations.length, 0), tone: 'ok' },
    { label: 'X2', count: plan.sites.reduce((n, s) => n + s.x2Relations.length, 0), tone: 'info' },
    { label: 'Missing bands', count: missingBands, tone: missingBands > 0 ? 'warning' : 'ok' },
    { label: 'Warnings', count: warnings, tone: warnings > 0 ? 'warning' : 'ok' },
    { label: 'Errors', count: errors, tone: errors > 0 ? 'error' : 'ok' },
  ];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * "Parameter planning of LX0001 (AIR3227/78 on L800, L1800): 3 NR cells, 6 LTE anchors, 6 EN-DC relations, X2 to 1 eNB."
 * plus what was kept, the bands a site lacks, the sites not planned and the problems' count.
 */
export function planMessage(plan: ClusterPlan): string {
  const all = [...plan.sites.map((s) => s.siteId), ...plan.unplanned.map((u) => u.siteId)];
  const nr = plan.sites.flatMap((s) => s.nrCells);
  const planned = nr.filter((c) => c.status === 'planned').length;
  const kept = nr.length - planned;
  const bands = plan.lteBands.filter((b) => plan.sites.some((s) => !s.missingBands.includes(b)));
  const sum = (f: (s: ClusterPlan['sites'][number]) => number) => plan.sites.reduce((n, s) => n + f(s), 0);
  const what = all.length === 1 ? all[0] : `${all.length} sites (${all.join(', ')})`;
  let text =
    `Parameter planning of ${what} (${plan.antenna} on ${bands.join(', ')}): ${plural(planned, 'NR cell')}` +
    `${kept > 0 ? ` planned, ${kept} kept` : ''}, ${plural(
      sum((s) => s.anchors.length),
      'LTE anchor',
    )}, ` +
    `${plural(
      sum((s) => s.endcRelations.length),
      'EN-DC relation',
    )}, X2 to ${plural(
      sum((s) => s.x2Relations.length),
      'eNB',
    )}.`;
  for (const s of plan.sites) if (s.missingBands.length > 0) text += ` ${s.siteId} has no LTE cell on ${s.missingBands.join(', ')}: no anchor there.`;
  if (plan.unplanned.length > 0) text += ` Not planned: ${plan.unplanned.map((u) => u.siteId).join(', ')}.`;
  const errors = plan.problems.filter((p) => p.verdict === 'ERROR').length;
  const warnings = plan.problems.filter((p) => p.verdict === 'WARNING').length;
  if (errors + warnings > 0) {
    text += ` Problems: ${[errors > 0 ? plural(errors, 'error') : null, warnings > 0 ? plural(warnings, 'warning') : null].filter(Boolean).join(', ')}.`;
  }
  return text;
}
