import { CHECKED_ATTRIBUTES } from './checks';

/**
 * The MoBatch scripts of `Parser/GetMoBacthScripts` (docs/engines/amos.md#where-the-commands-come-from), pure: from the inventory's nodes to
 * the files of the zip. Each node lands in exactly one site file (`sites_<tech>.txt`), named after all
 * the technologies its cells carry (`4G_5G`), so its one log answers every check that concerns it: a node
 * listed twice would leave two logs, and the later upload would replace the first.
 */

export interface ScriptNode {
  name: string;
  /** Technologies of the node's cells (2G, 3G, 4G, 5G, NB-IoT), or the node's own when it has none. */
  technologies: readonly string[];
}

export interface ScriptOptions {
  /** `mobatch -p`: nodes run in parallel. */
  parallel?: number;
  /** `mobatch -t`: minutes per node before MoBatch gives up on it. */
  timeoutMinutes?: number;
}

export const DEFAULT_PARALLEL = 20;
export const DEFAULT_TIMEOUT_MINUTES = 30;
/** The largest upload the console takes (File/UploadMultiple), per zip. */
export const MAX_LOG_ZIP_BYTES = 10_000_000;

export const RET_COMMAND = 'hget retsubunit electricalAntennaTilt|operationalState|userLabel|maxTilt|minTilt|iuantAntennaSerialNumber';

const ORDER = ['2G', '3G', '4G', '5G'] as const;
type Tech = (typeof ORDER)[number];
/** Nodes whose technology the inventory does not know get every command. */
const UNKNOWN = 'other';

/** `get <MO filter> <attribute filter>`: anchored, so children of a cell and look-alike attributes stay out. */
const getLine = (moClasses: string, attributes: readonly string[]) => `get ${moClasses}=[^,]+$ ^(${attributes.join('|')})$`;

const GET_LINES: Record<Tech, string[]> = {
  // GSM sectors and TRXs are judged by their states alone.
  '2G': [],
  '3G': [getLine('UtranCell', CHECKED_ATTRIBUTES.UtranCell)],
  // NB-IoT cells live on the eNodeB: their line is in the 4G file.
  '4G': [getLine('EUtranCell(FDD|TDD)', CHECKED_ATTRIBUTES.EUtranCell), getLine('NbIotCell', CHECKED_ATTRIBUTES.NbIotCell)],
  '5G': [getLine('NRCellDU', CHECKED_ATTRIBUTES.NRCellDU)],
};

/** The node's group: its technologies in order, NB-IoT counted as 4G (`4G`, `4G_5G`), or `other`. */
export function scriptGroupOf(technologies: readonly string[]): string {
  const set = new Set(technologies.map((t) => (t.toUpperCase() === 'NB-IOT' ? '4G' : t.toUpperCase())));
  const techs = ORDER.filter((t) => set.has(t));
  return techs.length > 0 ? techs.join('_') : UNKNOWN;
}

/** The AMOS commands of one group, ending with `q`. */
export function commandsOf(group: string): string[] {
  const techs: readonly Tech[] = group === UNKNOWN ? ORDER : ORDER.filter((t) => group.split('_').includes(t));
  const lines = ['lt all', 'alt', 'st cell'];
  if (techs.includes('2G')) lines.push('st GsmSector|Trx');
  lines.push('st term');
  if (techs.includes('4G') || techs.includes('5G')) lines.push('st mme');
  lines.push(RET_COMMAND);
  for (const t of techs) lines.push(...GET_LINES[t]);
  lines.push('q');
  return lines;
}

function readme(groups: ReadonlyArray<readonly [string, number]>, total: number, parallel: number, timeout: number): string {
  const run = groups.map(([g, n]) => `mobatch -p ${parallel} -t ${timeout} sites_${g}.txt cmd_${g}.mos logs_${g}     # ${n} ${n === 1 ? 'node' : 'nodes'}`);
  const zip = groups.map(([g]) => `cd logs_${g} && zip -r ../mobatch_${g}.zip . && cd ..`);
  return [
    'Cellwise MoBatch scripts',
    '========================',
    '',
    `These files collect what the Cellwise monitoring pages read from ${total} ${total === 1 ? 'node' : 'nodes'}: the whole network of`,
    'the inventory (the monitoring area needs the Operations project, which covers the whole network).',
    '',
    'Files',
    '  sites.txt          every node, one per line',
    '  sites_<tech>.txt   the nodes of one technology group (a node carrying several technologies is in one group, e.g. 4G_5G)',
    '  cmd_<tech>.mos     the AMOS commands for that group: lt all, alt, st cell, st term, st mme, the RET hget and the get',
    '                     lines of the configuration checks',
    '',
    '1. Run MoBatch on a host that reaches the nodes (-p: nodes in parallel, -t: minutes per node):',
    '',
    ...run.map((l) => `   ${l}`),
    '',
    '2. Zip each log folder; each zip holds one <node>.log per node plus mobatch_result.txt:',
    '',
    ...zip.map((l) => `   ${l}`),
    '',
    `   Each zip must be at most ${MAX_LOG_ZIP_BYTES.toLocaleString('en-US')} bytes: split a larger folder into several zips`,
    '   (for example: zip -r ../mobatch_4G_part1.zip $(ls | head -n 500)). Zips inside the zip are refused.',
    '',
    '3. Upload the zips on Monitoring > Upload Logs. A node whose log is uploaded again replaces its previous',
    '   results; nodes MoBatch could not reach are listed as unreachable.',
    '',
  ].join('\n');
}

/** The zip's files, `[name, content]`, in a stable order. */
export function buildMobatchScripts(nodes: readonly ScriptNode[], options: ScriptOptions = {}): Array<[string, string]> {
  const parallel = options.parallel ?? DEFAULT_PARALLEL;
  const timeout = options.timeoutMinutes ?? DEFAULT_TIMEOUT_MINUTES;
  const byName = new Map<string, ScriptNode>();
  for (const node of nodes) if (node.name.trim() !== '') byName.set(node.name.trim(), node);
  const names = [...byName.keys()].sort();
  const groups = new Map<string, string[]>();
  for (const name of names) {
    const group = scriptGroupOf(byName.get(name)!.technologies);
    groups.set(group, [...(groups.get(group) ?? []), name]);
  }
  const ordered = [...groups.entries()].sort(([a], [b]) => (a === UNKNOWN ? 1 : b === UNKNOWN ? -1 : a.localeCompare(b)));
  const files: Array<[string, string]> = [
    [
      'README.txt',
      readme(
        ordered.map(([g, n]) => [g, n.length] as const),
        names.length,
        parallel,
        timeout,
      ),
    ],
  ];
  files.push(['sites.txt', lines(names)]);
  for (const [group, members] of ordered) {
    files.push([`sites_${group}.txt`, lines(members)]);
    files.push([`cmd_${group}.mos`, lines(commandsOf(group))]);
  }
  return files;
}

const lines = (items: readonly string[]) => (items.length > 0 ? `${items.join('\n')}\n` : '');
