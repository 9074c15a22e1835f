import type { AlarmRow, ReportColumn, ReportTable, SiteReport, SiteReportTab } from 'contracts';

/**
 * The site report (specification route table, §3 Site report; docs/engines/monitoring.md#the-site-report), pure: what is known of a
 * site in, the tables of its tabs out, in tab order. Every tab has its tables, empty when nothing is known.
 */

export interface ReportNode {
  nodeName: string;
  tech: string | null;
  logsDate: string | null;
  inInventory: boolean;
  unreachable: boolean;
  unreachableReason: string | null;
  alarmStatus: string;
  alarmCount: number;
  radioStatus: string;
  coreStatus: string;
  /** From the PM counters, null when none were imported for the node. */
  performanceStatus: string | null;
  performanceComments: string | null;
}

export interface ReportPlanRow {
  technology: string | null;
  equipCode: string | null;
  equipName: string | null;
  supplier: string | null;
  workType: string | null;
  commDate: string | null;
  week: number | null;
  project: string | null;
  workOrder: string | null;
}

export interface ReportTrackerRow {
  currentStatus: string | null;
  scheduleStatus: string | null;
  deliveredDate: string | null;
}

export interface ReportRetRow {
  nodeName: string;
  mo: string;
  antennaUnitGroup: string | null;
  antennaNearUnit: string | null;
  retSubUnit: string | null;
  /** 0.1°, as the node reports them. */
  electricalTilt: number | null;
  minTilt: number | null;
  maxTilt: number | null;
  operationalState: string | null;
  userLabel: string | null;
  serialNumber: string | null;
}

export interface ReportFinding {
  nodeName: string;
  /** 2G, 3G, 4G, 5G, NB-IoT or site. */
  tech: string;
  mo: string;
  cell: string | null;
  /** radio or core. */
  area: string;
  check: string;
  expected: string | null;
  actual: string | null;
  status: string;
  comment: string;
}

export interface SiteData {
  siteId: string;
  siteName: string | null;
  nodes: readonly ReportNode[];
  plan: readonly ReportPlanRow[];
  tracker: ReportTrackerRow | null;
  alarms: readonly AlarmRow[];
  ret: readonly ReportRetRow[];
  findings: readonly ReportFinding[];
}

type Kind = ReportColumn['options']['kind'];
type Cell = string | number | null;

/** A column: multiselect by default (specification §9), free text as a text field. */
function column(name: string, label: string, kind: Kind = 'text', filterType: ReportColumn['filterType'] = 'multiselect'): ReportColumn {
  return { name, label, options: { display: true, filter: true, sort: true, kind }, filterType };
}
const freeText = (name: string, label: string) => column(name, label, 'text', 'textField');

export const SITE_SUMMARY_COLUMNS: readonly ReportColumn[] = [
  column('nodeName', 'Node'),
  column('tech', 'Tech'),
  column('logsDate', 'Logs Date', 'date'),
  column('alarmStatus', 'Alarm Status', 'status'),
  column('alarmCount', 'Alarms', 'number'),
  column('radioStatus', 'Radio Status', 'status'),
  column('coreStatus', 'Core Status', 'status'),
  column('performanceStatus', 'Performance Status', 'status'),
  freeText('performanceComments', 'Performance Comments'),
  freeText('remarks', 'Remarks'),
];

export const COMMISSIONING_COLUMNS: readonly ReportColumn[] = [
  column('technology', 'Technology'),
  column('equipCode', 'Equip Code'),
  column('equipName', 'Equip Name'),
  column('supplier', 'Supplier'),
  column('workType', 'Work Type'),
  column('commDate', 'Comm Date', 'date'),
  column('week', 'Week', 'number'),
  column('project', 'Project'),
  column('workOrder', 'Work Order'),
  column('currentStatus', 'Current Status'),
  column('scheduleStatus', 'Schedule Status'),
  column('deliveredDate', 'Delivered Date', 'date'),
];

export const RET_COLUMNS: readonly ReportColumn[] = [
  column('nodeName', 'Node'),
  column('mo', 'MO'),
  column('antennaUnitGroup', 'AUG'),
  column('antennaNearUnit', 'ANU'),
  column('retSubUnit', 'RSU'),
  column('electricalTilt', 'Tilt (°)', 'number'),
  column('minTilt', 'Min Tilt (°)', 'number'),
  column('maxTilt', 'Max Tilt (°)', 'number'),
  column('operationalState', 'Operational State'),
  column('userLabel', 'User Label'),
  column('serialNumber', 'Serial Number'),
];

export const ALARM_COLUMNS: readonly ReportColumn[] = [
  column('alarmDatetime', 'Date & Time', 'date'),
  column('nodeName', 'Node'),
  column('tech', 'Tech'),
  column('severity', 'Severity'),
  column('AlarmName', 'Alarm'),
  column('moName', 'MO'),
  freeText('info', 'Additional Info'),
  column('acknowledged', 'Acknowledged'),
  freeText('ackNote', 'Note'),
  column('ackBy', 'Acknowledged By'),
  column('ackAt', 'Acknowledged At', 'date'),
  freeText('hint', 'Hint'),
  freeText('source', 'Source'),
  // 'Yes': kept from an older log, the node's newest one having stopped inside its alarm table.
  column('stale', 'Stale'),
];

export const CHECK_COLUMNS: readonly ReportColumn[] = [
  column('nodeName', 'Node'),
  column('mo', 'MO'),
  column('cell', 'Cell'),
  column('area', 'Area'),
  column('check', 'Check'),
  column('expected', 'Expected'),
  column('actual', 'Actual'),
  column('status', 'Status', 'status'),
  freeText('comment', 'Comment'),
];

/** The Configuration Check tabs, by finding technology. */
export const CHECK_TABS: ReadonlyArray<readonly [string, SiteReportTab]> = [
  ['2G', 'Configuration Check 2G'],
  ['3G', 'Configuration Check 3G'],
  ['4G', 'Configuration Check 4G'],
  ['5G', 'Configuration Check 5G'],
  ['NB-IoT', 'Configuration Check NBIoT'],
];

/** 0.1° → ° (one decimal, as the node's resolution). */
export function degrees(tenths: number | null): number | null {
  return tenths === null ? null : Math.round(tenths) / 10;
}

export function remarksOf(node: Pick<ReportNode, 'inInventory' | 'unreachable'>): string {
  return [node.inInventory ? null : 'Not in inventory', node.unreachable ? 'Unreachable' : null].filter(Boolean).join('; ');
}

/** Link interfaces whose termination points belong to one technology's checks. */
const LINK_TECH: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bAbis\b/i, '2G'],
  [/\bIub\b|\bIu\b/i, '3G'],
  [/\bS1\b|\bX2\b|TermPointToMme|TermPointToENB/i, '4G'],
  [/\bNG\b|\bXn\b|\bF1\b|TermPointToAmf|TermPointToGNodeB/i, '5G'],
];

/**
 * The tab of a finding: its own technology; a site-level one (a link, a unit) by the link it names,
 * else by its node's technology (the first, for a multi-technology node).
 */
export function techOfFinding(finding: ReportFinding, nodeTech: string | null): string | null {
  if (CHECK_TABS.some(([tech]) => tech === finding.tech)) return finding.tech;
  const text = `${finding.check} ${finding.mo}`;
  for (const [pattern, tech] of LINK_TECH) if (pattern.test(text)) return tech;
  const first = (nodeTech ?? '').split('/')[0]?.trim() ?? '';
  return CHECK_TABS.some(([tech]) => tech === first) ? first : null;
}

function table(TableName: string, TabName: SiteReportTab, TableStructure: readonly ReportColumn[], TableData: Array<Record<string, Cell>>): ReportTable {
  return { TableName, TabName, TableStructure: [...TableStructure], TableData };
}

export function buildSiteReport(data: SiteData): SiteReport {
  const logsDates = data.nodes.map((n) => n.logsDate).filter((d): d is string => d !== null);
  const logsDate = logsDates.length > 0 ? logsDates.reduce((a, b) => (a > b ? a : b)) : null;
  const techOfNode = new Map(data.nodes.map((n) => [n.nodeName, n.tech]));

  const summary = data.nodes.map((n) => ({
    nodeName: n.nodeName,
    tech: n.tech,
    logsDate: n.logsDate,
    alarmStatus: n.alarmStatus,
    alarmCount: n.alarmCount,
    radioStatus: n.radioStatus,
    coreStatus: n.coreStatus,
    performanceStatus: n.performanceStatus ?? 'N/A',
    performanceComments: n.performanceComments ?? '',
    remarks: [remarksOf(n), n.unreachable && n.unreachableReason ? n.unreachableReason : null].filter(Boolean).join(': '),
  }));

  const commissioning = data.plan.map((p) => ({
    technology: p.technology,
    equipCode: p.equipCode,
    equipName: p.equipName,
    supplier: p.supplier,
    workType: p.workType,
    commDate: p.commDate,
    week: p.week,
    project: p.project,
    workOrder: p.workOrder,
    currentStatus: data.tracker?.currentStatus ?? null,
    scheduleStatus: data.tracker?.scheduleStatus ?? null,
    deliveredDate: data.tracker?.deliveredDate ?? null,
  }));

  const ret = data.ret.map((r) => ({
    nodeName: r.nodeName,
    mo: r.mo,
    antennaUnitGroup: r.antennaUnitGroup,
    antennaNearUnit: r.antennaNearUnit,
    retSubUnit: r.retSubUnit,
    electricalTilt: degrees(r.electricalTilt),
    minTilt: degrees(r.minTilt),
    maxTilt: degrees(r.maxTilt),
    operationalState: r.operationalState,
    userLabel: r.userLabel,
    serialNumber: r.serialNumber,
  }));

  const alarms = data.alarms.map((a) => Object.fromEntries(ALARM_COLUMNS.map((c) => [c.name, (a as Record<string, Cell>)[c.name] ?? null])));

  const checks = new Map<string, Array<Record<string, Cell>>>(CHECK_TABS.map(([tech]) => [tech, []]));
  for (const f of data.findings) {
    const tech = techOfFinding(f, techOfNode.get(f.nodeName) ?? null);
    if (tech === null) continue;
    checks.get(tech)?.push({
      nodeName: f.nodeName,
      mo: f.mo,
      cell: f.cell,
      area: f.area,
      check: f.check,
      expected: f.expected,
      actual: f.actual,
      status: f.status,
      comment: f.comment,
    });
  }

  return {
    siteId: data.siteId,
    siteName: data.siteName,
    logsDate,
    tables: [
      table('Site Summary', 'Summary', SITE_SUMMARY_COLUMNS, summary),
      table('Commissioning Information', 'Summary', COMMISSIONING_COLUMNS, commissioning),
      table('RET Information', 'RET Information', RET_COLUMNS, ret),
      table('Alarms', 'Alarms', ALARM_COLUMNS, alarms),
      ...CHECK_TABS.map(([tech, tab]) => table(tab, tab, CHECK_COLUMNS, checks.get(tech) ?? [])),
    ],
  };
}

/** Excel forbids these in sheet names. */
const SHEET_FORBIDDEN = /[[\]:*?/\\]/g;

/** One unique sheet name per table: ≤ 31 characters, none of `[]:*?/\`, not blank. */
export function sheetNames(tables: readonly Pick<ReportTable, 'TableName'>[]): string[] {
  const used = new Set<string>();
  return tables.map((t, i) => {
    const base =
      t.TableName.replace(SHEET_FORBIDDEN, ' ')
        .replace(/\s+/g, ' ')
        .trim()
        .replace(/^'+|'+$/g, '') || `Table ${i + 1}`;
    let name = base.slice(0, 31).trim();
    for (let n = 2; used.has(name.toLowerCase()); n += 1) {
      const suffix = ` (${n})`;
      name = `${base.slice(0, 31 - suffix.length).trim()}${suffix}`;
    }
    used.add(name.toLowerCase());
    return name;
  });
}
