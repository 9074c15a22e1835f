import JSZip from 'jszip';

/**
 * MoBatch output as Ericsson's tools write it (one `<node>.log` per node, `mobatch_result.txt`), for
 * browser tests that upload logs. Same layout as the parser's unit fixtures: prompt, header line with
 * zone, rules, `alt` rows and footer, `st cell`, `hget retsubunit`.
 */

export interface LogAlarm {
  /** `YYYY-MM-DD HH:MM:SS`, UTC. */
  time: string;
  severity: 'C' | 'M' | 'm' | 'w';
  problem: string;
  mo: string;
  info: string;
}

export interface NodeLog {
  node: string;
  /** Header time, `YYMMDD-HH:MM:SS`. */
  header: string;
  alarms: LogAlarm[];
  /** `[userLabel, tilt in 0.1°]` per RET unit. */
  ret: Array<[string, number]>;
  /** Written with CRLF line ends, as logs copied from Windows hosts are. */
  crlf?: boolean;
}

const RULE = '='.repeat(110);

function headerLine(log: NodeLog): string {
  return `${log.header}+0000 10.20.30.${log.node.length} 24.0c MSRBS_NODE_MODEL_24.Q1_651.28133.125_0bc9 stopfile=/tmp/118${log.node.length}`;
}

export function nodeLogText(log: NodeLog): string {
  const { node } = log;
  const critical = log.alarms.filter((a) => a.severity === 'C').length;
  const major = log.alarms.filter((a) => a.severity === 'M').length;
  const lines = [
    'Checking ip contact...OK',
    '',
    `${node}> alt`,
    '',
    headerLine(log),
    'Connecting to 10.20.30.1:830 (SSH)',
    '',
    RULE,
    'Date & Time (UTC)   S Specific Problem                    MO (Cause/AdditionalInfo)',
    RULE,
    ...log.alarms.map((a) => `${a.time} ${a.severity} ${a.problem.padEnd(35)} ${a.mo} (${a.info})`),
    `>>> Total: ${log.alarms.length} Alarms (${critical} Critical, ${major} Major)`,
    '',
    `${node}> st cell`,
    '',
    headerLine(log),
    RULE,
    'Proxy  Adm State     Op. State     MO',
    RULE,
    `   854  1 (UNLOCKED)  1 (ENABLED)   ENodeBFunction=1,EUtranCellFDD=${node}_1`,
    RULE,
    'Total: 1 MOs',
    '',
    `${node}> hget retsubunit electricalAntennaTilt|operationalState|userLabel|maxTilt|minTilt|iuantAntennaSerialNumber`,
    '',
    headerLine(log),
    RULE,
    'MO                                                electricalAntennaTilt operationalState userLabel maxTilt minTilt iuantAntennaSerialNumber',
    RULE,
    ...log.ret.map(
      ([label, tilt], i) =>
        `AntennaUnitGroup=${i + 1},AntennaNearUnit=1,RetSubUnit=1 ${String(tilt).padEnd(21)} 1 (ENABLED)      ${label.padEnd(9)} 140     0       CN10${node}${i}`,
    ),
    RULE,
    `Total: ${log.ret.length} MOs`,
    '',
    `${node}> q`,
    '',
  ];
  return lines.join(log.crlf ? '\r\n' : '\n');
}

/** A zip of the logs plus `mobatch_result.txt` (OK for each, `no contact` for `unreachable`). */
export async function logArchive(logs: NodeLog[], unreachable: string[] = []): Promise<Buffer> {
  const zip = new JSZip();
  for (const log of logs) zip.file(`${log.node}.log`, nodeLogText(log));
  for (const node of unreachable) zip.file(`${node}.log`, 'Checking ip contact...Not OK\n');
  const results = [...logs.map((l) => `OK          0m13s  ${l.node}`), ...unreachable.map((n) => `no contact  0m15s  ${n}`)];
  zip.file('mobatch_result.txt', `${results.join('\n')}\n`);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** The entries of a zip the console handed out, by name. */
export async function readZip(content: Buffer): Promise<Record<string, string>> {
  const zip = await JSZip.loadAsync(content);
  const files: Record<string, string> = {};
  for (const [name, entry] of Object.entries(zip.files)) if (!entry.dir) files[name] = await entry.async('string');
  return files;
}
