import type { LinkInterface, MoAttribute, MoState, MoTech, NodeLogResult, SourceRef } from '../amos';

/**
 * The node checks of docs/engines/monitoring.md#node-checks, pure: from one parsed node log (and what the inventory says about the
 * node's cells) to the node's fault and configuration statuses and one finding per check made. The
 * findings feed the per-technology configuration tabs of the site report; the comments name the cell or
 * link and why, so a NOK status never needs a second look to be understood.
 */

export type CheckStatus = 'OK' | 'NOK';
/** 'Incomplete log': the log stopped inside the table the status is read from (set by the parse job, which knows the previous log). */
export type NodeStatus = CheckStatus | 'N/A' | 'Incomplete log';

/** One cell of the inventory (network_cells) of the node under check. */
export interface InventoryCell {
  name: string;
  /** 2G, 3G, 4G, 5G or NB-IoT. */
  tech: string;
  pci: number | null;
  psc: number | null;
  tac: number | null;
  nrTac: number | null;
  lac: number | null;
  /** ARFCN / UARFCN / EARFCN / NR-ARFCN. */
  channel: number | null;
  /** 0.1 dBm (3G). */
  maxTxPower?: number | null;
}

export interface InventoryFacts {
  cells: readonly InventoryCell[];
}

/** One configuration check made on a node's log: a row of `monitoring_findings`. */
export interface Finding {
  area: 'radio' | 'core';
  tech: MoTech;
  mo: string;
  moClass: string | null;
  cell: string | null;
  checkName: string;
  expected: string | null;
  actual: string | null;
  status: CheckStatus;
  /** Why it is NOK, naming the cell or link; '' when OK. */
  comment: string;
  source: SourceRef;
}

export interface NodeEvaluation {
  alarmStatus: NodeStatus;
  alarmCount: number;
  alarmComments: string;
  radioStatus: NodeStatus;
  radioComments: string;
  coreStatus: NodeStatus;
  coreComments: string;
  findings: Finding[];
}

/** MO classes whose `st` rows are cells (their states decide the radio status). */
export const CELL_CLASSES: ReadonlySet<string> = new Set([
  'EUtranCellFDD',
  'EUtranCellTDD',
  'NRCellDU',
  'NRCellCU',
  'UtranCell',
  'NodeBLocalCell',
  'GsmSector',
  'Trx',
  'GeranCell',
  'NbIotCell',
]);

/** The technology whose configuration tab lists a link's finding. */
export const LINK_TECH: Readonly<Record<LinkInterface, MoTech>> = {
  S1: '4G',
  X2: '4G',
  NG: '5G',
  Xn: '5G',
  F1: '5G',
  Iub: '3G',
  Abis: '2G',
};

/** Attributes each technology's checks read, by MO class (the `get` lines of the MoBatch scripts come from here). */
export const CHECKED_ATTRIBUTES = {
  EUtranCell: ['cellBarred', 'primaryPlmnReserved', 'qRxLevMin', 'physicalLayerCellIdGroup', 'physicalLayerSubCellId', 'tac', 'earfcndl'],
  NRCellDU: ['cellBarred', 'cellReservedForOperator', 'nRPCI', 'nRTAC'],
  UtranCell: ['cellReserved', 'primaryCpichPower', 'maximumTransmissionPower', 'primaryScramblingCode', 'uarfcnDl'],
  NbIotCell: ['cellBarred'],
} as const;

/** Baselines of the parameter checks (values as the node names them). */
export const BASELINE = {
  cellBarred: 'NOT_BARRED',
  primaryPlmnReserved: 'false',
  qRxLevMin: -140,
  cellReservedForOperator: 'NOT_RESERVED',
  cellReserved: 'NOT_RESERVED',
  /** primaryCpichPower within maximumTransmissionPower − 120 … − 80 (0.1 dBm: 12 dB … 8 dB below the maximum). */
  cpichBelowMax: { min: 80, max: 120 },
} as const;

const SEVERE = new Set(['Critical', 'Major']);

/** `1 (NOT_BARRED)` → `NOT_BARRED`; `NOT_BARRED`, `false` as written. */
export function valueWord(value: string): string {
  const open = value.indexOf('(');
  const close = value.lastIndexOf(')');
  return open >= 0 && close > open ? value.slice(open + 1, close).trim() : value.trim();
}

/** The leading integer of a value (`-140`, `300`, `1 (ENABLED)` → 1), or null. */
export function valueNumber(value: string): number | null {
  const m = /^\s*([+-]?\d+)/.exec(value);
  return m ? Number(m[1]) : null;
}

/** `ENodeBFunction=1,EUtranCellFDD=LX0001_2` → `EUtranCellFDD=LX0001_2`. */
export function lastRdn(mo: string): string {
  const at = mo.lastIndexOf(',');
  return at < 0 ? mo : mo.slice(at + 1);
}

export function evaluateNode(log: NodeLogResult, inventory: InventoryFacts | null): NodeEvaluation {
  if (log.unreachable) {
    const comment = `Node unreachable: ${log.unreachableReason ?? 'no contact'}`;
    return {
      alarmStatus: 'N/A',
      alarmCount: 0,
      alarmComments: comment,
      radioStatus: 'N/A',
      radioComments: comment,
      coreStatus: 'N/A',
      coreComments: comment,
      findings: [],
    };
  }
  const own = (row: { node: string }) => row.node.toLowerCase() === log.node.toLowerCase();
  const families = new Set(log.blocks.filter(own).map((b) => b.family));

  const alarms = log.alarms.filter(own);
  const severe = alarms.some((a) => SEVERE.has(a.severity));
  const alarmNames = [...new Set(alarms.map((a) => a.specificProblem))].sort();

  // A later row of the same MO (st cell, then st term, then st mme) says the same or newer: one verdict per MO.
  const states = new Map<string, MoState>();
  for (const s of log.states) if (own(s)) states.set(s.mo, s);
  const cellFindings = [...states.values()].filter((s) => s.moClass !== null && CELL_CLASSES.has(s.moClass)).flatMap(stateFindings);
  const linkFindings = [...states.values()].filter((s) => s.link !== null).map(linkFinding);
  const parameterFindings = parameterChecks(log.attributes.filter(own), inventory);

  const radio = [...cellFindings, ...parameterFindings];
  const hasRadioData = families.has('st') || families.has('get') || families.has('hget');
  return {
    alarmStatus: severe ? 'NOK' : families.has('alt') || alarms.length > 0 ? 'OK' : 'N/A',
    alarmCount: alarms.length,
    alarmComments: families.has('alt') || alarms.length > 0 ? alarmNames.join('; ') : 'No alarm list (alt) in the log',
    radioStatus: statusOf(radio, hasRadioData),
    radioComments: hasRadioData || radio.length > 0 ? commentsOf(radio) : 'No cell states or parameters in the log',
    coreStatus: statusOf(linkFindings, families.has('st')),
    coreComments: families.has('st') || linkFindings.length > 0 ? commentsOf(linkFindings) : 'No link states (st term) in the log',
    findings: [...radio, ...linkFindings],
  };
}

function statusOf(findings: readonly Finding[], known: boolean): NodeStatus {
  if (findings.some((f) => f.status === 'NOK')) return 'NOK';
  return known || findings.length > 0 ? 'OK' : 'N/A';
}

function commentsOf(findings: readonly Finding[]): string {
  return [...new Set(findings.filter((f) => f.status === 'NOK').map((f) => f.comment))].join('; ');
}

/**
 * One finding about `row`'s MO, built field by field: a large parse makes hundreds of thousands (a
 * verdict per cell state, link and checked value), and spreading a shared part into each cost more
 * than the checks themselves.
 */
function finding(
  row: MoState | MoAttribute,
  area: Finding['area'],
  tech: MoTech,
  checkName: string,
  expected: string | null,
  actual: string | null,
  status: CheckStatus,
  comment: string,
): Finding {
  return { area, tech, mo: row.mo, moClass: row.moClass, cell: row.cell, checkName, expected, actual, status, comment, source: row.source };
}

/** A cell's administrative and operational states: LOCKED or DISABLED make it NOK. */
function stateFindings(s: MoState): Finding[] {
  const label = lastRdn(s.mo);
  const out: Finding[] = [];
  if (s.admState !== null) {
    const locked = s.admState === 'LOCKED';
    const comment = locked ? `${label} locked (administrativeState ${s.admState})` : '';
    out.push(finding(s, 'radio', s.tech, 'administrativeState', 'UNLOCKED', s.admState, locked ? 'NOK' : 'OK', comment));
  }
  if (s.opState !== null) {
    const disabled = s.opState === 'DISABLED';
    const comment = disabled ? `${label} disabled (operationalState ${s.opState})` : '';
    out.push(finding(s, 'radio', s.tech, 'operationalState', 'ENABLED', s.opState, disabled ? 'NOK' : 'OK', comment));
  }
  return out;
}

/** A termination point: NOK when DISABLED or LOCKED. */
function linkFinding(s: MoState): Finding {
  const link = s.link as LinkInterface;
  const locked = s.admState === 'LOCKED';
  const disabled = s.opState === 'DISABLED';
  const why = locked && disabled ? 'locked and disabled' : locked ? 'locked' : disabled ? 'disabled' : null;
  const actual = s.admState !== null && s.opState !== null ? `${s.admState}, ${s.opState}` : (s.admState ?? s.opState);
  return finding(
    s,
    'core',
    LINK_TECH[link],
    `${link} link state`,
    s.admState === null ? 'ENABLED' : 'UNLOCKED, ENABLED',
    actual,
    why === null ? 'OK' : 'NOK',
    why === null ? '' : `${lastRdn(s.mo)} (${link}) ${why}`,
  );
}

/** The checked attributes of one cell MO, by name (the last printed value wins). */
interface CellAttributes {
  first: MoAttribute;
  values: Map<string, MoAttribute>;
}

function cellsOf(attributes: readonly MoAttribute[]): Map<string, CellAttributes> {
  const cells = new Map<string, CellAttributes>();
  for (const a of attributes) {
    if (a.moClass === null || !CELL_CLASSES.has(a.moClass)) continue;
    let cell = cells.get(a.mo);
    if (!cell) {
      cell = { first: a, values: new Map() };
      cells.set(a.mo, cell);
    }
    cell.values.set(a.attribute, a);
  }
  return cells;
}

function parameterChecks(attributes: readonly MoAttribute[], inventory: InventoryFacts | null): Finding[] {
  const byName = new Map<string, InventoryCell>();
  for (const c of inventory?.cells ?? []) byName.set(c.name.toLowerCase(), c);
  const out: Finding[] = [];
  for (const { first, values } of cellsOf(attributes).values()) {
    const label = lastRdn(first.mo);
    const known = first.cell === null ? undefined : byName.get(first.cell.toLowerCase());
    const check = new CheckWriter(out, label);
    const get = (name: string) => values.get(name);
    switch (first.moClass) {
      case 'EUtranCellFDD':
      case 'EUtranCellTDD': {
        check.word(get('cellBarred'), BASELINE.cellBarred);
        check.word(get('primaryPlmnReserved'), BASELINE.primaryPlmnReserved);
        check.number(get('qRxLevMin'), BASELINE.qRxLevMin);
        const group = get('physicalLayerCellIdGroup');
        const sub = get('physicalLayerSubCellId');
        if (group && sub && known && known.pci !== null) {
          const g = valueNumber(group.value);
          const s = valueNumber(sub.value);
          check.against(
            group,
            'PCI',
            g === null || s === null ? null : 3 * g + s,
            known.pci,
            `physicalLayerCellIdGroup ${group.value}, physicalLayerSubCellId ${sub.value}`,
          );
        }
        if (known) {
          check.inventory(get('tac'), known.tac);
          check.inventory(get('earfcndl'), known.channel);
        }
        break;
      }
      case 'NRCellDU':
        check.word(get('cellBarred'), BASELINE.cellBarred);
        check.word(get('cellReservedForOperator'), BASELINE.cellReservedForOperator);
        if (known) {
          check.inventory(get('nRPCI'), known.pci);
          check.inventory(get('nRTAC'), known.nrTac ?? known.tac);
        }
        break;
      case 'UtranCell': {
        check.word(get('cellReserved'), BASELINE.cellReserved);
        const cpich = get('primaryCpichPower');
        const maxAttr = get('maximumTransmissionPower');
        const max = maxAttr ? valueNumber(maxAttr.value) : (known?.maxTxPower ?? null);
        if (cpich && max !== null) {
          const low = max - BASELINE.cpichBelowMax.max;
          const high = max - BASELINE.cpichBelowMax.min;
          const value = valueNumber(cpich.value);
          const ok = value !== null && value >= low && value <= high;
          check.push(cpich, 'primaryCpichPower', `${low} … ${high}`, cpich.value, ok, `outside maximumTransmissionPower − 12 dB … − 8 dB (${low} … ${high})`);
        }
        if (known) {
          check.inventory(get('primaryScramblingCode'), known.psc);
          check.inventory(get('uarfcnDl'), known.channel);
        }
        break;
      }
      case 'NbIotCell':
        check.word(get('cellBarred'), BASELINE.cellBarred);
        break;
      default:
        break;
    }
  }
  return out;
}

/** Writes one finding per check, with the comment naming the cell and what was found. */
class CheckWriter {
  constructor(
    private readonly out: Finding[],
    private readonly label: string,
  ) {}

  push(a: MoAttribute, checkName: string, expected: string, actual: string | null, ok: boolean, why: string): void {
    this.out.push(
      finding(a, 'radio', a.tech, checkName, expected, actual, ok ? 'OK' : 'NOK', ok ? '' : `${this.label} ${checkName} ${actual ?? 'unreadable'}: ${why}`),
    );
  }

  /** An enumeration or boolean against its baseline word (case-insensitive). */
  word(a: MoAttribute | undefined, expected: string): void {
    if (!a) return;
    const actual = valueWord(a.value);
    this.push(a, a.attribute, expected, actual, actual.toLowerCase() === expected.toLowerCase(), `expected ${expected}`);
  }

  number(a: MoAttribute | undefined, expected: number): void {
    if (!a) return;
    const actual = valueNumber(a.value);
    this.push(a, a.attribute, String(expected), a.value.trim(), actual === expected, `expected ${expected}`);
  }

  /** A value the inventory also holds; skipped when the inventory does not know it. */
  inventory(a: MoAttribute | undefined, expected: number | null): void {
    if (!a || expected === null) return;
    this.push(a, a.attribute, String(expected), a.value.trim(), valueNumber(a.value) === expected, `the inventory says ${expected}`);
  }

  against(a: MoAttribute, checkName: string, actual: number | null, expected: number, shown: string): void {
    this.push(a, checkName, String(expected), actual === null ? null : String(actual), actual === expected, `the inventory says ${expected} (${shown})`);
  }
}
