import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { commandsOf, scriptGroupOf } from '../domain/monitoring';
import { ZipOutput } from '../files/zip-output';

/**
 * Demo MoBatch output (issue 13): one `<node>.log` per node of the inventory plus `mobatch_result.txt`,
 * written in the formats the parser of domain/amos reads (and that real moshell/AMOS prints), so a
 * fresh console shows living monitoring pages through the real parse job. Deterministic: the same
 * inventory, seed and `now` give the same bytes.
 *
 * What a newcomer sees: alarms of every severity in both `alt` tables (UNACKNOWLEDGED / ACKNOWLEDGED
 * with its Operator column) across many nodes, a few clean sites and some with Warnings only, locked
 * and disabled cells, disabled S1/X2/NG/Iub term points, RET values on every site, configuration
 * values that follow the inventory except for a few deliberate deviations, and exactly one unreachable
 * node. The logs carry the real quirks too: CRLF in some files, `<ip>: ` prefixes in one, `cvls` once.
 */

export const DEMO_LOGS_FILE = 'demo-mobatch-logs.zip';
export const MOBATCH_RESULT_FILE = 'mobatch_result.txt';

export type DemoCellTech = '2G' | '3G' | '4G' | '5G' | 'NB-IoT';

/** A cell as the logs print it: the MO relative to ManagedElement and the inventory's values. */
export interface DemoLogCell {
  name: string;
  tech: DemoCellTech;
  /** `ENodeBFunction=1,EUtranCellFDD=LX0001_L800_1` */
  mo: string;
  pci: number | null;
  tac: number | null;
  nrTac: number | null;
  channel: number | null;
  psc: number | null;
  /** 0.1 dBm. */
  cpichPower: number | null;
  /** 0.1 dBm. */
  maxTxPower: number | null;
}

export interface DemoLogNode {
  name: string;
  siteId: string | null;
  /** RadioNode, RNC or BSC (network_nodes.type). */
  type: string | null;
  cells: DemoLogCell[];
}

/** Extra rows per node beyond the demo's (the bench scales the logs up with these). */
export interface DemoLogScale {
  /** Alarms added to every reachable node's UNACKNOWLEDGED table. */
  alarms?: number;
  /** X2 term points of every RadioNode (the demo has 2 to 5). */
  termPoints?: number;
  /** EUtranCellRelations per 4G cell, printed by an extra `get EUtranCellRelation` (the demo has none). */
  relations?: number;
}

export interface DemoLogOptions {
  /** PRNG seed (default 1). */
  seed?: number;
  /** When the logs were taken: the last node's header is a little before this (default: the current time). */
  now?: Date;
  scale?: DemoLogScale;
}

export type DemoSeverityCode = 'C' | 'M' | 'm' | 'w';

export interface DemoLogSummary {
  /** Node logs written (the unreachable node's included). */
  logs: number;
  /** Bytes of log text (logs and mobatch_result.txt), before compression. */
  textBytes: number;
  /** The one node that was not reached, or null when the inventory has no node. */
  unreachable: string | null;
  /** Alarm rows written, per severity and table. */
  alarms: { unacknowledged: Record<DemoSeverityCode, number>; acknowledged: Record<DemoSeverityCode, number> };
  /** Nodes whose logs hold no alarm at all, and those whose alarms are all Warnings. */
  clean: string[];
  warningsOnly: string[];
  /** Cells written LOCKED, or UNLOCKED but DISABLED; term points DISABLED (`node MO`). */
  lockedCells: string[];
  disabledCells: string[];
  disabledTermPoints: string[];
  /** Configuration values written unlike the inventory or the usual setting, in words. */
  deviations: string[];
  /** Files written with CRLF line ends, the one with `<ip>: ` prefixes, the one with `cvls`. */
  crlfFiles: string[];
  ipPrefixedFile: string | null;
  cvlsFile: string | null;
}

// ---------------------------------------------------------------------------------------------------
// Deterministic randomness, one stream per (seed, node, purpose): a node's log never depends on the others.

function mulberry32(a: number): () => number {
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function rngFor(seed: number, index: number, salt: number): () => number {
  let h = 2166136261 ^ seed;
  for (const v of [index, salt]) {
    h = Math.imul(h ^ (v & 0xffff), 16777619);
    h = Math.imul(h ^ (v >>> 16), 16777619);
  }
  return mulberry32(h >>> 0);
}

const pick = <T>(r: () => number, items: readonly T[]): T => items[Math.floor(r() * items.length)] as T;
const int = (r: () => number, min: number, max: number): number => min + Math.floor(r() * (max - min + 1));

// ---------------------------------------------------------------------------------------------------
// The inventory

/** The MO of a cell relative to ManagedElement; NR cells are printed as their NRCellDU (where states and PCI live). */
function cellMo(dn: string, name: string, tech: string): string {
  if (tech === '5G') return `GNBDUFunction=1,NRCellDU=${name}`;
  const me = dn.indexOf(',ManagedElement=');
  if (me < 0) return dn;
  const after = dn.indexOf(',', me + 1);
  return after < 0 ? dn : dn.slice(after + 1);
}

/** Nodes and cells of the stored network inventory, by node name. */
export async function readDemoLogNodes(db: Kysely<Database>): Promise<DemoLogNode[]> {
  const nodes = await db.selectFrom('network_nodes').select(['name', 'site_id', 'type']).orderBy('name').execute();
  const cells = await db
    .selectFrom('network_cells')
    .select(['dn', 'name', 'node_name', 'tech', 'pci', 'tac', 'nr_tac', 'channel', 'psc', 'cpich_power', 'max_tx_power'])
    .orderBy('node_name')
    .orderBy('name')
    .execute();
  const byNode = new Map<string, DemoLogCell[]>();
  for (const c of cells) {
    let list = byNode.get(c.node_name);
    if (!list) byNode.set(c.node_name, (list = []));
    list.push({
      name: c.name,
      tech: c.tech as DemoCellTech,
      mo: cellMo(c.dn, c.name, c.tech),
      pci: c.pci,
      tac: c.tac,
      nrTac: c.nr_tac,
      channel: c.channel,
      psc: c.psc,
      cpichPower: c.cpich_power,
      maxTxPower: c.max_tx_power,
    });
  }
  return nodes.map((n) => ({ name: n.name, siteId: n.site_id, type: n.type, cells: byNode.get(n.name) ?? [] }));
}

/**
 * RadioNodes shaped like the demo network's biggest sites (four LTE bands, NR and NB-IoT, three sectors),
 * without a database: the bench writes thousands of them.
 */
export function syntheticLogNodes(count: number): DemoLogNode[] {
  const nodes: DemoLogNode[] = [];
  for (let i = 0; i < count; i += 1) {
    const name = `BX${String(i + 1).padStart(5, '0')}`;
    const cells: DemoLogCell[] = [];
    const base = { pci: null, tac: 3000 + (i % 12), nrTac: null, channel: null, psc: null, cpichPower: null, maxTxPower: null };
    const group = (i * 37 + 11) % 168;
    for (const [band, earfcn] of [
      ['L800', 6300],
      ['L1800', 1850],
      ['L2100', 100],
      ['L700', 9360],
    ] as const) {
      for (let s = 0; s < 3; s += 1) {
        const cell = `${name}_${band}_${s + 1}`;
        cells.push({ ...base, name: cell, tech: '4G', mo: `ENodeBFunction=1,EUtranCellFDD=${cell}`, pci: group * 3 + s, channel: earfcn });
      }
    }
    for (let s = 0; s < 3; s += 1) {
      const nr = `${name}_N78_${s + 1}`;
      cells.push({
        ...base,
        name: nr,
        tech: '5G',
        mo: `GNBDUFunction=1,NRCellDU=${nr}`,
        pci: 3 * ((i * 53 + 7) % 336) + s,
        nrTac: 5000 + (i % 12),
        channel: 636666,
      });
      const nb = `${name}_NB800_${s + 1}`;
      cells.push({ ...base, name: nb, tech: 'NB-IoT', mo: `ENodeBFunction=1,NbIotCell=${nb}`, pci: group * 3 + s, channel: 6290 });
    }
    nodes.push({ name, siteId: name, type: 'RadioNode', cells });
  }
  return nodes;
}

// ---------------------------------------------------------------------------------------------------
// Formats (as moshell/AMOS prints them; see the fixtures of domain/amos)

const RULE = '='.repeat(115);
const two = (n: number): string => String(n).padStart(2, '0');

/** `YYMMDD-HH:MM:SS+0000` */
function headerStamp(at: Date): string {
  return `${two(at.getUTCFullYear() % 100)}${two(at.getUTCMonth() + 1)}${two(at.getUTCDate())}-${two(at.getUTCHours())}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())}+0000`;
}

/** `YYYY-MM-DD HH:MM:SS` */
function tableStamp(at: Date): string {
  return `${at.getUTCFullYear()}-${two(at.getUTCMonth() + 1)}-${two(at.getUTCDate())} ${two(at.getUTCHours())}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())}`;
}

const MODELS: Record<string, { version: string; model: string }> = {
  RadioNode: { version: '24.0c', model: 'MSRBS_NODE_MODEL_24.Q1_643.28133.125_0bc9' },
  RNC: { version: '24.0c', model: 'RNC_NODE_MODEL_W24.Q1_431.12044.55_7f21' },
  BSC: { version: '24.0c', model: 'BSC_NODE_MODEL_G24.Q1_215.3310.17_c4e0' },
};

const OPERATORS = ['noc_ana', 'noc_rui', 'ops_marta', 'fieldeng_joao'];
const STATE = {
  unlocked: '1 (UNLOCKED)',
  locked: '0 (LOCKED)',
  enabled: '1 (ENABLED)',
  disabled: '0 (DISABLED)',
} as const;

type AlarmTarget = 'cell' | 'x2' | 's1' | 'site' | 'iub';

interface AlarmTemplate {
  severity: DemoSeverityCode;
  problem: string;
  target: AlarmTarget;
  /** For site alarms, the MO. */
  mo?: string;
  info: string;
}

/** Alarm names of Ericsson RAN nodes, by severity; cell and link alarms go with a disabled cell or term point. */
const ALARMS: AlarmTemplate[] = [
  { severity: 'C', problem: 'Service Unavailable', target: 'cell', info: 'Cell is disabled: no RF output' },
  { severity: 'C', problem: 'Link Failure', target: 's1', info: 'SCTP association to the MME lost' },
  { severity: 'C', problem: 'Power Supply Failure', target: 'site', mo: 'Equipment=1,FieldReplaceableUnit=PSU-1', info: 'Input voltage out of range' },
  { severity: 'M', problem: 'Resource Configuration Failure', target: 'cell', info: 'Cell configuration failed (baseband resources)' },
  { severity: 'M', problem: 'Link Failure', target: 'x2', info: 'X2 link to the peer eNodeB down' },
  { severity: 'M', problem: 'SFP Not Present', target: 'site', mo: 'Equipment=1,FieldReplaceableUnit=BB-1,SfpModule=A', info: 'No SFP plugged in' },
  { severity: 'M', problem: 'Fan Failure', target: 'site', mo: 'Equipment=1,FieldReplaceableUnit=SUP-1', info: 'Fan speed below threshold (2 of 4 fans)' },
  { severity: 'm', problem: 'Link Degraded', target: 'site', mo: 'Transport=1,EthernetPort=TN_A', info: 'Packet loss 2.1% (threshold 1%)' },
  {
    severity: 'm',
    problem: 'Clock Calibration Expiry Soon',
    target: 'site',
    mo: 'Transport=1,Synchronization=1,RadioEquipmentClock=1',
    info: 'Calibration expires in 12 days',
  },
  {
    severity: 'm',
    problem: 'RF Reflected Power High',
    target: 'site',
    mo: 'Equipment=1,FieldReplaceableUnit=RRU-2,RfPort=A',
    info: 'VSWR 1.9 (threshold 1.7)',
  },
  { severity: 'w', problem: 'Calendar Clock All NTP Servers Unavailable', target: 'site', mo: 'SysM=1,TimeM=1,Ntp=1', info: 'No NTP server reachable' },
  {
    severity: 'w',
    problem: 'Calendar Clock NTP Server Unavailable',
    target: 'site',
    mo: 'SysM=1,TimeM=1,Ntp=1,NtpServer=2',
    info: 'NTP server 10.0.0.2 does not answer',
  },
  { severity: 'w', problem: 'Enclosure Door Open', target: 'site', mo: 'Equipment=1,Cabinet=1', info: 'Door sensor (cabinet 1)' },
];
const SEVERITY_ORDER: DemoSeverityCode[] = ['C', 'M', 'm', 'w'];

interface AlarmRow {
  at: Date;
  severity: DemoSeverityCode;
  problem: string;
  mo: string;
  info: string;
  operator: string | null;
}

interface StateRow {
  proxy: number;
  adm: string;
  op: string;
  mo: string;
}

const emptyCounts = (): Record<DemoSeverityCode, number> => ({ C: 0, M: 0, m: 0, w: 0 });

/** Lines of one node log, written block by block. */
class LogText {
  readonly lines: string[] = [];
  private clock: number;

  constructor(
    private readonly node: string,
    private readonly ip: string,
    private readonly model: { version: string; model: string },
    private readonly stopfile: number,
    start: Date,
  ) {
    this.clock = start.getTime();
  }

  header(): string {
    return `${headerStamp(new Date(this.clock))} ${this.ip} ${this.model.version} ${this.model.model} stopfile=/tmp/${this.stopfile}`;
  }

  /** A prompt, a blank line and the block header; each command takes a second or two. */
  command(command: string, seconds: number): void {
    this.lines.push(`${this.node}> ${command}`, '', this.header());
    this.clock += seconds * 1000;
  }

  push(...lines: string[]): void {
    for (const l of lines) this.lines.push(l);
  }
}

function stateTable(log: LogText, rows: readonly StateRow[]): void {
  const rule = '='.repeat(83);
  if (rows.length > 0) {
    log.push(rule, 'Proxy  Adm State     Op. State     MO', rule);
    for (const r of rows) log.push(`${String(r.proxy).padStart(6)}  ${r.adm.padEnd(14)}${r.op.padEnd(14)}${r.mo}`);
    log.push(rule);
  }
  log.push(`Total: ${rows.length} MOs`, '');
}

function alarmTable(log: LogText, title: string, rows: readonly AlarmRow[], basis: 'UTC' | 'Local', withOperator: boolean): void {
  log.push(`${title}: ${rows.length}`);
  if (rows.length === 0) return;
  log.push(
    RULE,
    `Date & Time (${basis})${basis === 'UTC' ? '   ' : ' '}S Specific Problem                    MO (Cause/AdditionalInfo)${withOperator ? ' Operator' : ''}`,
    RULE,
  );
  for (const a of rows) {
    const line = `${tableStamp(a.at)} ${a.severity} ${a.problem.padEnd(35)} ${a.mo} (${a.info})`;
    log.push(withOperator ? `${line} ${a.operator ?? ''}` : line);
  }
}

interface GetRow {
  mo: string;
  attribute: string;
  value: string;
}

/** A `get <class> a|b|c` table: one row per MO and attribute, `Total: N MOs` counting the MOs. */
function getTable(log: LogText, rows: readonly GetRow[]): void {
  if (rows.length === 0) {
    log.push('Total: 0 MOs', '');
    return;
  }
  const moWidth = Math.max(56, ...rows.map((r) => r.mo.length + 2));
  const attrWidth = Math.max(18, ...rows.map((r) => r.attribute.length + 2));
  log.push(RULE, `${'MO'.padEnd(moWidth)}${'Attribute'.padEnd(attrWidth)}Value`, RULE);
  for (const r of rows) log.push(`${r.mo.padEnd(moWidth)}${r.attribute.padEnd(attrWidth)}${r.value}`);
  log.push(RULE, `Total: ${new Set(rows.map((r) => r.mo)).size} MOs`, '');
}

/** The columns of the console's `hget retsubunit …` line. */
const RET_ATTRIBUTES = ['electricalAntennaTilt', 'operationalState', 'userLabel', 'maxTilt', 'minTilt', 'iuantAntennaSerialNumber'] as const;

/** An `hget` table: every column as wide as its widest text plus one, so each value starts at its header. */
function hgetTable(log: LogText, rows: ReadonlyArray<{ mo: string; values: string[] }>): void {
  if (rows.length === 0) {
    log.push('Total: 0 MOs', '');
    return;
  }
  const names = ['MO', ...RET_ATTRIBUTES];
  const widths = names.map((n, k) => Math.max(n.length, ...rows.map((r) => (k === 0 ? r.mo : (r.values[k - 1] ?? '')).length)) + 1);
  const line = (cols: string[]) =>
    cols
      .map((c, k) => (k === cols.length - 1 ? c : c.padEnd(widths[k]!)))
      .join('')
      .trimEnd();
  log.push(RULE, line(names), RULE);
  for (const r of rows) log.push(line([r.mo, ...r.values]));
  log.push(RULE, `Total: ${rows.length} MOs`, '');
}

const CVLS = [
  '',
  '===================================================================================================================',
  'Date & Time             CV Name                                   Upgrade Package       Release',
  '===================================================================================================================',
  'Startable:              Au_CXP2010055%1_R64A12_{D}_0100        CXP2010055/1_R64A12   24.Q1 (R64A12)',
  'Executing:              Au_CXP2010055%1_R64A12_{D}_0100        CXP2010055/1_R64A12   24.Q1 (R64A12)',
  '-------------------------------------------------------------------------------------------------------------------',
  'Rollback status:        Rollback is on',
  '======================================================================================================================================',
  'Id CV Name                                Creation Date    UpgradePackage       Release  Type        Operator     Comment',
  '======================================================================================================================================',
  ' 1 SU_CXP2010055%1_R64A12_240110_0843     2024-01-10 08:43 CXP2010055/1_R64A12  24.Q1    upgrade_tol MSRBS        Temp. CV',
  ' 2 Au_CXP2010055%1_R64A12_{D}_0100     {T} CXP2010055/1_R64A12  24.Q1    autocreate  MSRBS        Daily autocreated CV',
  '======================================================================================================================================',
  ">>> Total: 2 CV's, 1 UP's",
  '',
];

// ---------------------------------------------------------------------------------------------------
// One node

type Category = 'clean' | 'warnings' | 'mixed';

interface NodePlan {
  node: DemoLogNode;
  index: number;
  ip: string;
  start: Date;
  category: Category;
  /** Among the mixed nodes: which severities are forced into which table, so every severity shows in both. */
  mixedIndex: number;
  neighbours: string[];
  crlf: boolean;
  ipPrefix: boolean;
  cvls: boolean;
}

interface NodeOutcome {
  text: string;
  unack: AlarmRow[];
  ack: AlarmRow[];
  locked: string[];
  disabled: string[];
  disabledTerms: string[];
  deviations: string[];
}

const SECOND = 1000;
const DAY = 86_400 * SECOND;

function nodeLog(plan: NodePlan, seed: number, now: Date, scale: DemoLogScale): NodeOutcome {
  const { node } = plan;
  const r = rngFor(seed, plan.index, 1);
  const kind = node.type === 'RNC' || node.type === 'BSC' ? node.type : 'RadioNode';
  const log = new LogText(node.name, plan.ip, MODELS[kind]!, int(r, 10_000, 99_999), plan.start);
  const out: NodeOutcome = { text: '', unack: [], ack: [], locked: [], disabled: [], disabledTerms: [], deviations: [] };
  let proxy = int(r, 300, 900);
  const nextProxy = () => (proxy += int(r, 1, 40));

  // Cells and their states; a mixed node may have a locked cell and cell alarms disable cells.
  const stateCells = node.cells.filter((c) => c.tech !== '5G' || kind === 'RadioNode');
  const cellState = new Map<string, StateRow>();
  for (const c of stateCells) cellState.set(c.mo, { proxy: nextProxy(), adm: STATE.unlocked, op: STATE.enabled, mo: c.mo });

  // Term points: S1 to two MMEs and X2 to neighbours (NG and EN-DC X2 on NR sites); Iub on an RNC.
  const terms: StateRow[] = [];
  if (kind === 'RadioNode') {
    for (const mme of ['MME_1', 'MME_2'])
      terms.push({ proxy: nextProxy(), adm: STATE.unlocked, op: STATE.enabled, mo: `ENodeBFunction=1,TermPointToMme=${mme}` });
    for (const peer of plan.neighbours) {
      terms.push({
        proxy: nextProxy(),
        adm: STATE.unlocked,
        op: STATE.enabled,
        mo: `ENodeBFunction=1,EUtraNetwork=1,ExternalENodeBFunction=${peer},TermPointToENB=${peer}`,
      });
    }
    if (node.cells.some((c) => c.tech === '5G')) {
      terms.push({ proxy: nextProxy(), adm: STATE.unlocked, op: STATE.enabled, mo: 'GNBCUCPFunction=1,AMFFunction=1,TermPointToAmf=AMF_1' });
      const peer = plan.neighbours[0];
      if (peer) {
        terms.push({
          proxy: nextProxy(),
          adm: STATE.unlocked,
          op: STATE.enabled,
          mo: `ENodeBFunction=1,GUtraNetwork=1,ExternalGNodeBFunction=${peer},TermPointToGNB=${peer}`,
        });
      }
    }
  }
  const iubs: StateRow[] =
    kind === 'RNC'
      ? [...new Set(node.cells.map((c) => c.name.split('_')[0]!))].map((site) => ({
          proxy: nextProxy(),
          adm: STATE.unlocked,
          op: STATE.enabled,
          mo: `RncFunction=1,IubLink=Iub_${site}`,
        }))
      : [];

  // Alarms.
  const alarmAt = () => new Date(now.getTime() - Math.floor(r() * 30 * DAY) - 3600 * SECOND);
  const templatesOf = (severity: DemoSeverityCode, targets: AlarmTarget[]) => ALARMS.filter((a) => a.severity === severity && targets.includes(a.target));
  const available: AlarmTarget[] = ['site'];
  if (stateCells.length > 0) available.push('cell');
  if (terms.some((t) => t.mo.includes('TermPointToENB'))) available.push('x2');
  if (terms.some((t) => t.mo.includes('TermPointToMme'))) available.push('s1');
  if (iubs.length > 0) available.push('iub');
  const usedMos = new Set<string>();
  const alarm = (severity: DemoSeverityCode, acknowledged: boolean): AlarmRow => {
    // An alarm is raised once per MO: site alarms already shown are left out while others remain.
    const fitting = templatesOf(severity, available).length > 0 ? templatesOf(severity, available) : templatesOf(severity, ['site']);
    const fresh = fitting.filter((a) => a.target !== 'site' || !usedMos.has(a.mo!));
    const t = pick(r, fresh.length > 0 ? fresh : fitting);
    let mo = t.mo ?? 'ManagedElement=1';
    if (t.target === 'cell') {
      const free = stateCells.filter((c) => !usedMos.has(c.mo));
      const cell = pick(r, free.length > 0 ? free : stateCells);
      mo = cell.mo;
      const row = cellState.get(mo)!;
      row.op = STATE.disabled;
    } else if (t.target === 'x2' || t.target === 's1') {
      const kindOf = t.target === 'x2' ? 'TermPointToENB' : 'TermPointToMme';
      const candidates = terms.filter((x) => x.mo.includes(kindOf) && !usedMos.has(x.mo));
      const term = pick(r, candidates.length > 0 ? candidates : terms.filter((x) => x.mo.includes(kindOf)));
      term.op = STATE.disabled;
      mo = term.mo;
    }
    usedMos.add(mo);
    return { at: alarmAt(), severity, problem: t.problem, mo, info: t.info, operator: acknowledged ? pick(r, OPERATORS) : null };
  };
  if (plan.category === 'warnings') {
    out.unack.push(alarm('w', false));
    if (r() < 0.5) out.unack.push(alarm('w', false));
    if (plan.mixedIndex % 2 === 0) out.ack.push(alarm('w', true));
  } else if (plan.category === 'mixed') {
    const j = plan.mixedIndex;
    out.unack.push(alarm(SEVERITY_ORDER[j % 4]!, false));
    out.ack.push(alarm(SEVERITY_ORDER[(j + 2) % 4]!, true));
    for (let k = int(r, 0, 2); k > 0; k -= 1) out.unack.push(alarm(pick(r, SEVERITY_ORDER), false));
    if (j % 3 === 1) out.ack.push(alarm(pick(r, SEVERITY_ORDER), true));
    if (kind === 'RNC' && iubs.length > 0) {
      const iub = iubs[int(r, 0, iubs.length - 1)]!;
      iub.op = STATE.disabled;
      out.unack.push({ at: alarmAt(), severity: 'M', problem: 'NbapCommon Link Failure', mo: iub.mo, info: 'Iub link to the RBS down', operator: null });
    }
    // A cell locked for works: no alarm (an administrative lock raises none), but the radio status shows it.
    if (j % 3 === 2 && stateCells.length > 1) {
      const free = stateCells.filter((c) => !usedMos.has(c.mo));
      if (free.length > 0) {
        const row = cellState.get(pick(r, free).mo)!;
        row.adm = STATE.locked;
        row.op = STATE.disabled;
      }
    }
  }
  for (let k = scale.alarms ?? 0; k > 0; k -= 1) out.unack.push(alarm(pick(r, SEVERITY_ORDER), false));
  const byTime = (a: AlarmRow, b: AlarmRow) => b.at.getTime() - a.at.getTime();
  out.unack.sort(byTime);
  out.ack.sort(byTime);

  for (const row of cellState.values()) {
    if (row.adm === STATE.locked) out.locked.push(`${node.name} ${row.mo}`);
    else if (row.op === STATE.disabled) out.disabled.push(`${node.name} ${row.mo}`);
  }
  for (const t of [...terms, ...iubs]) if (t.op === STATE.disabled) out.disabledTerms.push(`${node.name} ${t.mo}`);

  // RET: one antenna per sector with a low- and a high-band RetSubUnit, on every site's RadioNode.
  const rets: Array<{ mo: string; values: string[] }> = [];
  if (kind === 'RadioNode') {
    const sectors = Math.max(1, new Set(node.cells.map((c) => c.name.slice(c.name.lastIndexOf('_') + 1))).size);
    for (let s = 1; s <= Math.min(sectors, 6); s += 1) {
      for (const [sub, band] of [
        [1, 'LB'],
        [2, 'HB'],
      ] as const) {
        const disabled = plan.category === 'mixed' && plan.mixedIndex % 5 === 4 && s === 1 && sub === 2;
        rets.push({
          mo: `AntennaUnitGroup=${s},AntennaNearUnit=1,RetSubUnit=${sub}`,
          values: [
            String(int(r, 2, 9) * 10),
            disabled ? STATE.disabled : STATE.enabled,
            `${node.name}_S${s}_${band}`,
            band === 'LB' ? '140' : '100',
            band === 'LB' ? '0' : '-20',
            `CN1018A${String(int(r, 0, 999_999)).padStart(6, '0')}`,
          ],
        });
      }
    }
  }

  const gets = configurationRows(plan, r, out);
  const relations = relationRows(plan, r, scale.relations ?? 0);

  // The log: the prompts of the console's MoBatch command file for the node's technologies, in its order.
  log.push('Checking ip contact...OK', '', 'HELP MENU            : h', '');
  const technologies = [...new Set(node.cells.map((c) => c.tech))];
  for (const command of commandsOf(scriptGroupOf(technologies))) {
    if (command === 'q') break;
    if (command === 'lt all') {
      log.command(command, 4);
      const mos = 900 + node.cells.length * 40 + terms.length * 3;
      log.push(
        `Checking MOM version...${MODELS[kind]!.model}`,
        'Fetching MO tree......................................Done.',
        `Last MO: ${mos}. Loaded ${mos} MOs. Total: ${mos + 1} MOs.`,
        '',
      );
    } else if (command === 'alt') {
      log.command(command, 2);
      log.push(`Connecting to ${plan.ip}:830 (SSH)`, '$ readclock', `Nr of active alarms are: ${out.unack.length + out.ack.length}`);
      const basis = kind === 'RadioNode' ? 'UTC' : 'Local';
      alarmTable(log, 'UNACKNOWLEDGED ALARMS', out.unack, basis, false);
      log.push('');
      alarmTable(log, 'ACKNOWLEDGED ALARMS', out.ack, basis, true);
      const all = [...out.unack, ...out.ack];
      const count = (s: DemoSeverityCode) => all.filter((a) => a.severity === s).length;
      log.push(`>>> Total: ${all.length} Alarms (${count('C')} Critical, ${count('M')} Major)`, '');
    } else if (command === 'st cell') {
      log.command(command, 1);
      stateTable(log, [...cellState.values()]);
    } else if (command === 'st term') {
      // On an RNC the Iub links are its term points.
      log.command(command, 1);
      stateTable(log, kind === 'RNC' ? iubs : terms);
    } else if (command === 'st mme') {
      log.command(command, 1);
      stateTable(
        log,
        terms.filter((t) => t.mo.includes('TermPointToMme')),
      );
    } else if (command.startsWith('st ')) {
      // `st GsmSector|Trx`: the demo's GSM cells are GeranCells of the BSC (st cell shows them).
      log.command(command, 1);
      stateTable(log, []);
    } else if (command.startsWith('hget retsubunit')) {
      log.command(command, 2);
      hgetTable(log, rets);
    } else if (command.startsWith('get ')) {
      log.command(command, 2);
      const cls = /^get (\w+)/.exec(command)?.[1] ?? '';
      getTable(log, gets.get(cls.startsWith('EUtranCell') ? 'EUtranCell' : cls) ?? []);
    } else {
      log.command(command, 1);
    }
  }
  if (relations.length > 0) {
    log.command('get EUtranCellRelation=[^,]+$ ^(isHoAllowed|neighborCellRef|sCellCandidate)$', 3);
    getTable(log, relations);
  }
  if (plan.cvls) {
    log.command('cvls', 2);
    const d = `${two(now.getUTCFullYear() % 100)}${two(now.getUTCMonth() + 1)}${two(now.getUTCDate())}`;
    const t = `${now.getUTCFullYear()}-${two(now.getUTCMonth() + 1)}-${two(now.getUTCDate())} 01:00`;
    log.push(...CVLS.map((l) => l.replace('{D}', d).replace('{T}', t)));
  }
  log.push(`${node.name}> q`, '', 'Bye...');

  let lines = log.lines;
  if (plan.ipPrefix) lines = lines.map((l) => `${plan.ip}: ${l}`);
  out.text = lines.join(plan.crlf ? '\r\n' : '\n') + (plan.crlf ? '\r\n' : '\n');
  return out;
}

/**
 * The configuration values of the node's cells by MO class (`EUtranCell`, `NRCellDU`, `NbIotCell`,
 * `UtranCell`): the inventory's, except a few deliberate deviations on mixed nodes, noted in `out`.
 */
function configurationRows(plan: NodePlan, r: () => number, out: NodeOutcome): Map<string, GetRow[]> {
  const { node } = plan;
  const rows = new Map<string, GetRow[]>();
  const deviation = (cell: DemoLogCell, attribute: string, written: string, expected: string) =>
    out.deviations.push(`${node.name} ${cell.mo}: ${attribute} ${written} (expected ${expected})`);
  const mixed = plan.category === 'mixed';

  const lte = node.cells.filter((c) => c.tech === '4G');
  const lteRows: GetRow[] = [];
  const oddLte = mixed && plan.mixedIndex % 3 === 0 && lte.length > 0 ? pick(r, lte) : null;
  const which = int(r, 0, 3);
  for (const c of lte) {
    const pci = c.pci ?? 0;
    let barred = '1 (NOT_BARRED)';
    let reserved = 'false';
    let qRxLevMin = '-140';
    let tac = String(c.tac ?? '');
    if (c === oddLte) {
      if (which === 0) {
        qRxLevMin = '-124';
        deviation(c, 'qRxLevMin', qRxLevMin, '-140');
      } else if (which === 1) {
        barred = '0 (BARRED)';
        deviation(c, 'cellBarred', 'BARRED', 'NOT_BARRED');
      } else if (which === 2) {
        reserved = 'true';
        deviation(c, 'primaryPlmnReserved', reserved, 'false');
      } else {
        tac = String((c.tac ?? 0) + 1);
        deviation(c, 'tac', tac, String(c.tac));
      }
    }
    lteRows.push(
      { mo: c.mo, attribute: 'cellBarred', value: barred },
      { mo: c.mo, attribute: 'primaryPlmnReserved', value: reserved },
      { mo: c.mo, attribute: 'qRxLevMin', value: qRxLevMin },
      { mo: c.mo, attribute: 'physicalLayerCellIdGroup', value: String(Math.floor(pci / 3)) },
      { mo: c.mo, attribute: 'physicalLayerSubCellId', value: String(pci % 3) },
      { mo: c.mo, attribute: 'tac', value: tac },
      { mo: c.mo, attribute: 'earfcndl', value: String(c.channel ?? '') },
    );
  }
  rows.set('EUtranCell', lteRows);

  const nr = node.cells.filter((c) => c.tech === '5G');
  const nrRows: GetRow[] = [];
  const oddNr = mixed && plan.mixedIndex % 4 === 1 && nr.length > 0 ? pick(r, nr) : null;
  const reserveNr = r() < 0.5;
  for (const c of nr) {
    let reserved = '1 (NOT_RESERVED)';
    let pci = String(c.pci ?? '');
    if (c === oddNr) {
      if (reserveNr) {
        reserved = '0 (RESERVED)';
        deviation(c, 'cellReservedForOperator', 'RESERVED', 'NOT_RESERVED');
      } else {
        pci = String(((c.pci ?? 0) + 3) % 1008);
        deviation(c, 'nRPCI', pci, String(c.pci));
      }
    }
    nrRows.push(
      { mo: c.mo, attribute: 'cellBarred', value: '1 (NOT_BARRED)' },
      { mo: c.mo, attribute: 'cellReservedForOperator', value: reserved },
      { mo: c.mo, attribute: 'nRPCI', value: pci },
      { mo: c.mo, attribute: 'nRTAC', value: String(c.nrTac ?? c.tac ?? '') },
    );
  }
  rows.set('NRCellDU', nrRows);

  const nb = node.cells.filter((c) => c.tech === 'NB-IoT');
  const oddNb = mixed && plan.mixedIndex % 4 === 3 && nb.length > 0 ? pick(r, nb) : null;
  if (oddNb) deviation(oddNb, 'cellBarred', 'BARRED', 'NOT_BARRED');
  rows.set(
    'NbIotCell',
    nb.map((c) => ({ mo: c.mo, attribute: 'cellBarred', value: c === oddNb ? '0 (BARRED)' : '1 (NOT_BARRED)' })),
  );

  // The inventory's own CPICH plan already holds a few out-of-range cells; two more deviate here.
  const umts = node.cells.filter((c) => c.tech === '3G');
  const umtsRows: GetRow[] = [];
  const reservedCell = umts.length > 0 ? umts[int(r, 0, umts.length - 1)]! : null;
  const powerCell = umts.length > 1 ? umts[int(r, 0, umts.length - 1)]! : null;
  for (const c of umts) {
    const max = c.maxTxPower ?? 430;
    let cpich = c.cpichPower ?? max - 100;
    if (c === powerCell) {
      cpich = max - 50;
      deviation(c, 'primaryCpichPower', String(cpich), `${max - 120} … ${max - 80}`);
    }
    if (c === reservedCell) deviation(c, 'cellReserved', 'RESERVED', 'NOT_RESERVED');
    umtsRows.push(
      { mo: c.mo, attribute: 'cellReserved', value: c === reservedCell ? '0 (RESERVED)' : '1 (NOT_RESERVED)' },
      { mo: c.mo, attribute: 'primaryCpichPower', value: String(cpich) },
      { mo: c.mo, attribute: 'maximumTransmissionPower', value: String(max) },
      { mo: c.mo, attribute: 'primaryScramblingCode', value: String(c.psc ?? '') },
      { mo: c.mo, attribute: 'uarfcnDl', value: String(c.channel ?? '') },
    );
  }
  rows.set('UtranCell', umtsRows);
  return rows;
}

/** Bench only: `count` EUtranCellRelations per 4G cell, three attributes each. */
function relationRows(plan: NodePlan, r: () => number, count: number): GetRow[] {
  const rows: GetRow[] = [];
  if (count <= 0) return rows;
  for (const c of plan.node.cells) {
    if (c.tech !== '4G') continue;
    for (let k = 0; k < count; k += 1) {
      const peer = plan.neighbours[k % Math.max(1, plan.neighbours.length)] ?? plan.node.name;
      const relation = `${c.mo},EUtranFreqRelation=${c.channel ?? 0},EUtranCellRelation=268-01-${10_001 + k}-${(k % 3) + 11}`;
      rows.push(
        { mo: relation, attribute: 'isHoAllowed', value: r() < 0.97 ? 'true' : 'false' },
        {
          mo: relation,
          attribute: 'neighborCellRef',
          value: `ENodeBFunction=1,EUtraNetwork=1,ExternalENodeBFunction=${peer},ExternalEUtranCellFDD=${peer}_${k}`,
        },
        { mo: relation, attribute: 'sCellCandidate', value: pick(r, ['0 (NOT_ALLOWED)', '1 (ALLOWED)', '2 (AUTO)']) },
      );
    }
  }
  return rows;
}

function unreachableLog(node: DemoLogNode, ip: string, at: Date, stopfile: number): string {
  const kind = node.type === 'RNC' || node.type === 'BSC' ? node.type : 'RadioNode';
  const { version, model } = MODELS[kind]!;
  return [`${headerStamp(at)} ${ip} ${version} ${model} stopfile=/tmp/${stopfile}`, 'Checking ip contact...Not OK', ''].join('\n');
}

const ipOf = (index: number): string => `10.${20 + Math.floor(index / 62_500)}.${Math.floor(index / 250) % 250}.${(index % 250) + 1}`;

/**
 * Writes the MoBatch output archive of `nodes` to `file`: `<node>.log` for each and `mobatch_result.txt`.
 * Deterministic for the same nodes, seed, now and scale.
 */
export async function writeLogArchive(file: string, nodes: readonly DemoLogNode[], options: DemoLogOptions = {}): Promise<DemoLogSummary> {
  const seed = options.seed ?? 1;
  const now = options.now ?? new Date();
  const scale = options.scale ?? {};
  const summary: DemoLogSummary = {
    logs: 0,
    textBytes: 0,
    unreachable: null,
    alarms: { unacknowledged: emptyCounts(), acknowledged: emptyCounts() },
    clean: [],
    warningsOnly: [],
    lockedCells: [],
    disabledCells: [],
    disabledTermPoints: [],
    deviations: [],
    crlfFiles: [],
    ipPrefixedFile: null,
    cvlsFile: null,
  };
  const pickR = rngFor(seed, 0xfffff, 9);
  const radio = nodes.filter((n) => n.type === 'RadioNode');
  const candidates = radio.length > 0 ? radio : nodes;
  // Not the first node, so the first site of the list (the one a newcomer opens) is alive.
  const unreachable = candidates.length === 0 ? null : candidates[candidates.length > 1 ? 1 + Math.floor(pickR() * (candidates.length - 1)) : 0]!;
  summary.unreachable = unreachable?.name ?? null;
  const radioNames = radio.map((n) => n.name);

  // Sessions run one after another: the last one ends a little before `now`.
  const secondsPerNode = 20;
  const first = now.getTime() - (nodes.length + 1) * secondsPerNode * SECOND;
  const results: string[] = [];
  const zip = new ZipOutput(file, now);
  try {
    let reachable = 0;
    let mixed = 0;
    for (let i = 0; i < nodes.length; i += 1) {
      const node = nodes[i]!;
      const ip = ipOf(i);
      const start = new Date(first + i * secondsPerNode * SECOND);
      const fileName = `${node.name}.log`;
      if (node === unreachable) {
        const text = unreachableLog(node, ip, start, 10_000 + i);
        await zip.add(fileName, text);
        summary.textBytes += Buffer.byteLength(text);
        summary.logs += 1;
        results.push(`${'no contact'.padEnd(12)}0m15s  ${node.name}`);
        continue;
      }
      const k = reachable;
      reachable += 1;
      const slot = (k + seed) % 8;
      const category: Category = slot === 0 ? 'clean' : slot === 3 ? 'warnings' : 'mixed';
      const at = radioNames.indexOf(node.name);
      const r = rngFor(seed, i, 2);
      const wanted = scale.termPoints ?? int(r, 2, 5);
      const neighbours: string[] = [];
      for (let d = 1; at >= 0 && neighbours.length < Math.min(wanted, radioNames.length - 1); d += 1)
        neighbours.push(radioNames[(at + d) % radioNames.length]!);
      const plan: NodePlan = {
        node,
        index: i,
        ip,
        start,
        category,
        mixedIndex: category === 'mixed' ? mixed : k,
        neighbours,
        crlf: k % 5 === 2,
        ipPrefix: k === 1,
        cvls: k === 3,
      };
      if (category === 'mixed') mixed += 1;
      const outcome = nodeLog(plan, seed, now, scale);
      await zip.add(fileName, outcome.text);
      summary.textBytes += Buffer.byteLength(outcome.text);
      summary.logs += 1;
      for (const a of outcome.unack) summary.alarms.unacknowledged[a.severity] += 1;
      for (const a of outcome.ack) summary.alarms.acknowledged[a.severity] += 1;
      const all = [...outcome.unack, ...outcome.ack];
      if (all.length === 0) summary.clean.push(node.name);
      else if (all.every((a) => a.severity === 'w')) summary.warningsOnly.push(node.name);
      summary.lockedCells.push(...outcome.locked);
      summary.disabledCells.push(...outcome.disabled);
      summary.disabledTermPoints.push(...outcome.disabledTerms);
      summary.deviations.push(...outcome.deviations);
      if (plan.crlf) summary.crlfFiles.push(fileName);
      if (plan.ipPrefix) summary.ipPrefixedFile = fileName;
      if (plan.cvls) summary.cvlsFile = fileName;
      const seconds = 8 + Math.floor(r() * 12);
      results.push(`${'OK'.padEnd(12)}0m${seconds}s  ${node.name}`);
    }
    const result = results.join('\n') + '\n';
    await zip.add(MOBATCH_RESULT_FILE, result);
    summary.textBytes += Buffer.byteLength(result);
    await zip.close();
  } catch (error) {
    await zip.discard();
    throw error;
  }
  return summary;
}

/** Writes the MoBatch output archive of the stored network inventory (see {@link writeLogArchive}). */
export async function writeDemoLogArchive(db: Kysely<Database>, file: string, options: DemoLogOptions = {}): Promise<DemoLogSummary> {
  return writeLogArchive(file, await readDemoLogNodes(db), options);
}

// ---------------------------------------------------------------------------------------------------
// First start

/** What the parse job is given: archives by name and path relative to DATA_DIR; no owner for the demo. */
export interface DemoParseParams {
  archives: Array<{ name: string; file: string }>;
  ownerId: null;
}

export interface DemoLogsParse<T> {
  /** Where the archive was written. */
  file: string;
  summary: DemoLogSummary;
  /** What the parse answered. */
  parsed: T;
}

/**
 * When the current operator has a network inventory but no parsed logs yet, writes the demo MoBatch
 * archive of its nodes to `<dataDir>/demo/` and hands it to `parse` (the server passes the
 * `monitoring.parse` job). Answers null, writing nothing, when a parse exists or there is no inventory.
 */
export async function parseDemoLogsIfNone<T>(
  db: Kysely<Database>,
  options: {
    dataDir: string;
    parse: (params: DemoParseParams) => Promise<T>;
    seed?: number;
    now?: Date;
    /** The archive's name under `<dataDir>/demo/` (default {@link DEMO_LOGS_FILE}); one per operator. */
    fileName?: string;
  },
): Promise<DemoLogsParse<T> | null> {
  const parsed = await db.selectFrom('monitoring_parses').select('id').limit(1).executeTakeFirst();
  if (parsed) return null;
  const nodes = await readDemoLogNodes(db);
  if (nodes.length === 0) return null;

  const dir = path.join(options.dataDir, 'demo');
  fs.mkdirSync(dir, { recursive: true });
  const fileName = options.fileName ?? DEMO_LOGS_FILE;
  const file = path.join(dir, fileName);
  // Written under a private name and renamed when complete, so no reader ever sees half an archive.
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.partial`;
  let summary: DemoLogSummary;
  try {
    summary = await writeLogArchive(partial, nodes, { seed: options.seed, now: options.now });
    fs.renameSync(partial, file);
  } finally {
    fs.rmSync(partial, { force: true });
  }
  const result = await options.parse({ archives: [{ name: fileName, file: path.relative(options.dataDir, file) }], ownerId: null });
  return { file, summary, parsed: result };
}
