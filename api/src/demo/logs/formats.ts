import { type DemoSeverityCode } from './model';

/** The texts of a log as moshell/AMOS prints them (see the fixtures of domain/amos): headers, stamps, and the tables of alt, st, get, hget and cvls. */

export const RULE = '='.repeat(115);
export const two = (n: number): string => String(n).padStart(2, '0');

/** `YYMMDD-HH:MM:SS+0000` */
export function headerStamp(at: Date): string {
  return `${two(at.getUTCFullYear() % 100)}${two(at.getUTCMonth() + 1)}${two(at.getUTCDate())}-${two(at.getUTCHours())}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())}+0000`;
}

/** `YYYY-MM-DD HH:MM:SS` */
export function tableStamp(at: Date): string {
  return `${at.getUTCFullYear()}-${two(at.getUTCMonth() + 1)}-${two(at.getUTCDate())} ${two(at.getUTCHours())}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())}`;
}

export const MODELS: Record<string, { version: string; model: string }> = {
  RadioNode: { version: '24.0c', model: 'MSRBS_NODE_MODEL_24.Q1_643.28133.125_0bc9' },
  RNC: { version: '24.0c', model: 'RNC_NODE_MODEL_W24.Q1_431.12044.55_7f21' },
  BSC: { version: '24.0c', model: 'BSC_NODE_MODEL_G24.Q1_215.3310.17_c4e0' },
};

export const OPERATORS = ['noc_ana', 'noc_rui', 'ops_marta', 'fieldeng_joao'];
export const STATE = {
  unlocked: '1 (UNLOCKED)',
  locked: '0 (LOCKED)',
  enabled: '1 (ENABLED)',
  disabled: '0 (DISABLED)',
} as const;

export type AlarmTarget = 'cell' | 'x2' | 's1' | 'site' | 'iub';

export interface AlarmTemplate {
  severity: DemoSeverityCode;
  problem: string;
  target: AlarmTarget;
  /** For site alarms, the MO. */
  mo?: string;
  info: string;
}

/** Alarm names of Ericsson RAN nodes, by severity; cell and link alarms go with a disabled cell or term point. */
export const ALARMS: AlarmTemplate[] = [
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
export const SEVERITY_ORDER: DemoSeverityCode[] = ['C', 'M', 'm', 'w'];

export interface AlarmRow {
  at: Date;
  severity: DemoSeverityCode;
  problem: string;
  mo: string;
  info: string;
  operator: string | null;
}

export interface StateRow {
  proxy: number;
  adm: string;
  op: string;
  mo: string;
}

export const emptyCounts = (): Record<DemoSeverityCode, number> => ({ C: 0, M: 0, m: 0, w: 0 });

/** Lines of one node log, written block by block. */
export class LogText {
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

export function stateTable(log: LogText, rows: readonly StateRow[]): void {
  const rule = '='.repeat(83);
  if (rows.length > 0) {
    log.push(rule, 'Proxy  Adm State     Op. State     MO', rule);
    for (const r of rows) log.push(`${String(r.proxy).padStart(6)}  ${r.adm.padEnd(14)}${r.op.padEnd(14)}${r.mo}`);
    log.push(rule);
  }
  log.push(`Total: ${rows.length} MOs`, '');
}

export function alarmTable(log: LogText, title: string, rows: readonly AlarmRow[], basis: 'UTC' | 'Local', withOperator: boolean): void {
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

export interface GetRow {
  mo: string;
  attribute: string;
  value: string;
}

/** A `get <class> a|b|c` table: one row per MO and attribute, `Total: N MOs` counting the MOs. */
export function getTable(log: LogText, rows: readonly GetRow[]): void {
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
export const RET_ATTRIBUTES = ['electricalAntennaTilt', 'operationalState', 'userLabel', 'maxTilt', 'minTilt', 'iuantAntennaSerialNumber'] as const;

/** An `hget` table: every column as wide as its widest text plus one, so each value starts at its header. */
export function hgetTable(log: LogText, rows: ReadonlyArray<{ mo: string; values: string[] }>): void {
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

export const CVLS = [
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
