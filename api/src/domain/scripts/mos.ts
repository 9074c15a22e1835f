/**
 * The shared writer of corrective AMOS scripts (issue 46): what a change is (the commands that make it,
 * the commands that take it back, the finding it answers), and how a node's `.mos` file and its undo
 * file are written. Pure: the generators of each run kind (neighbours.ts, cpich.ts, optimisation.ts,
 * planning.ts) build changes; this module only writes lines.
 *
 * The commands are moshell's:
 * - `crn <LDN>` then one `<attribute> <value>` line per attribute and `end`: creates the MO with those
 *   attributes and asks nothing (plain `cr` prompts for each mandatory attribute, which a script
 *   cannot answer reliably);
 * - `set <filter> <attribute> <value>` and `del <filter>`: the first argument is a regular expression
 *   over the node's LDNs, so it is the MO's LDN with its metacharacters escaped and anchored with `$`
 *   (without the anchor `…EUtranCellRelation=A1` would also match `…EUtranCellRelation=A12`);
 * - `confbd+` (no confirmation prompts), `gs+` (each set prints the old value), `lt all` (loads the MO
 *   tree the filters are matched against), `cvms <name>` (a configuration version backup, made
 *   startable) before anything changes.
 * LDNs are relative to ManagedElement, as moshell prints them.
 */

/** The finding kinds a command may answer; every command line's comment starts with one. */
export const FINDING_LABELS = ['MISSING', 'EXTRA', 'WRONG', 'CPICH', 'REMOVE', 'BLOCK', 'ADD', 'PLANNED', 'EN-DC'] as const;
export type FindingLabel = (typeof FINDING_LABELS)[number];

/** An attribute value as moshell takes it on a `crn` line or after `set`. */
export type MosValue =
  | { int: number }
  | { bool: boolean }
  /** A reference to another MO of the node, by LDN. */
  | { ref: string }
  /** A struct: `mcc=268,mnc=1,mncLength=2`. */
  | { struct: ReadonlyArray<readonly [string, number]> }
  /** A word without blanks (userLabel). */
  | { text: string };

export type MosAttribute = readonly [name: string, value: MosValue];

export type MosCommand =
  | { verb: 'crn'; ldn: string; attributes: readonly MosAttribute[]; why: string }
  | { verb: 'set'; ldn: string; attribute: string; value: MosValue; why: string }
  | { verb: 'del'; ldn: string; why: string };

/** One corrective change on one node: what makes it, and what takes it back (in the order the undo file runs them). */
export interface ScriptChange {
  node: string;
  label: FindingLabel;
  /** The finding in a few words: `LX0001_L800_1 -> LX0002_L800_2 (Planned.xlsx row 4)`. */
  finding: string;
  commands: readonly MosCommand[];
  undo: readonly MosCommand[];
}

/** A finding that gets a comment in the node's script and no command (e.g. an EXTRA relation not allowed to be removed). */
export interface ScriptNote {
  node: string;
  label: FindingLabel;
  text: string;
}

export interface ScriptPlan {
  changes: ScriptChange[];
  notes: ScriptNote[];
  /** Findings no node's script can carry (a source cell the dump does not know, a kind not scripted): listed in the README. */
  byHand: string[];
}

export const emptyPlan = (): ScriptPlan => ({ changes: [], notes: [], byHand: [] });

export const int = (n: number): MosValue => ({ int: n });
export const bool = (b: boolean): MosValue => ({ bool: b });
export const ref = (ldn: string): MosValue => ({ ref: ldn });
export const text = (t: string): MosValue => ({ text: t });
export const struct = (fields: ReadonlyArray<readonly [string, number]>): MosValue => ({ struct: fields });

/** What the run was, for the scripts' headers and the README. */
export interface ScriptRun {
  runId: number;
  /** e.g. 'Neighbour relations validation of LX0001'. */
  title: string;
  /** Short tag for the CV names: letters and digits only (e.g. 'NBR'). */
  tag: string;
  /** When the run read the dump. */
  date: Date;
}

/** A word moshell reads as one token and a CV name keeps: letters, digits, `_`, `-`, `.`. */
const SAFE_WORD = /^[A-Za-z0-9_.-]+$/;

/**
 * The LDN (relative to ManagedElement) of a DN from the dump: `SubNetwork=…,MeContext=X,ManagedElement=X,ENodeBFunction=1,…`
 * → `ENodeBFunction=1,…`. A DN without ManagedElement loses its SubNetwork/MeContext levels only.
 */
export function ldnOf(dn: string): string {
  const parts = dn.split(',');
  const me = parts.findIndex((p) => p.startsWith('ManagedElement='));
  if (me >= 0) return parts.slice(me + 1).join(',');
  let i = 0;
  while (i < parts.length - 1 && /^(SubNetwork|MeContext)=/.test(parts[i]!)) i += 1;
  return parts.slice(i).join(',');
}

/** The parent LDN (`A=1,B=2` → `A=1`), or '' at the top. */
export function parentOf(ldn: string): string {
  const i = ldn.lastIndexOf(',');
  return i < 0 ? '' : ldn.slice(0, i);
}

/** The MO class of an LDN's last RDN (`…,EUtranCellRelation=X` → `EUtranCellRelation`). */
export function classOf(ldn: string): string {
  const last = ldn.slice(ldn.lastIndexOf(',') + 1);
  return last.slice(0, last.indexOf('='));
}

/** The id of an LDN's last RDN. */
export function idOf(ldn: string): string {
  const last = ldn.slice(ldn.lastIndexOf(',') + 1);
  return last.slice(last.indexOf('=') + 1);
}

/** An LDN as a moshell filter that matches that MO only: regex metacharacters escaped, `$` at the end. */
export function filterOf(ldn: string): string {
  return `${ldn.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}$`;
}

/** Whether an LDN can be written in a script as is (no blanks, no `#`, every RDN `Class=id`). */
export function isWritableLdn(ldn: string): boolean {
  return ldn.split(',').every((rdn) => /^[A-Z][A-Za-z0-9]*=[^\s,=#]+$/.test(rdn));
}

/** `268-01` → eNodeBPlmnId / gNodeBPlmnId struct fields (the MNC as a number with its length). */
export function plmnStruct(plmn: string | null | undefined): ReadonlyArray<readonly [string, number]> | null {
  const m = /^(\d{3})-(\d{2,3})$/.exec(plmn ?? '');
  if (!m) return null;
  return [
    ['mcc', Number(m[1])],
    ['mnc', Number(m[2])],
    ['mncLength', m[2]!.length],
  ];
}

/** `268-01` → `26801`: the prefix ANR gives the ids of the proxies it creates. */
export function plmnCode(plmn: string): string {
  return plmn.replace('-', '');
}

export function valueText(value: MosValue): string {
  if ('int' in value) return String(value.int);
  if ('bool' in value) return value.bool ? 'true' : 'false';
  if ('ref' in value) return value.ref;
  if ('struct' in value) return value.struct.map(([k, v]) => `${k}=${v}`).join(',');
  return value.text;
}

function commandLines(command: MosCommand): string[] {
  switch (command.verb) {
    case 'crn':
      return [`crn ${command.ldn}`, ...command.attributes.map(([name, value]) => `${name} ${valueText(value)}`), 'end'];
    case 'set':
      return [`set ${filterOf(command.ldn)} ${command.attribute} ${valueText(command.value)}`];
    case 'del':
      return [`del ${filterOf(command.ldn)}`];
  }
}

/** A comment line: one line, no control characters. */
const comment = (words: string): string => `# ${words.replace(/[\r\n\t]+/g, ' ').trim()}`;

/** `CW_NBR_12_pre`: a CV name from the run (the script adds the date it ran). */
function cvName(run: ScriptRun, node: string, undo: boolean): string {
  const safeNode = node.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 20);
  return `CW_${run.tag}_${run.runId}_${safeNode}_${undo ? 'undo' : 'pre'}_$date`;
}

const stamp = (d: Date): string => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

function header(run: ScriptRun, node: string, undo: boolean, count: number): string[] {
  return [
    comment(`Cellwise corrective script${undo ? ' (UNDO)' : ''} for node ${node}`),
    comment(`Run ${run.runId}: ${run.title}; the dump as read on ${stamp(run.date)}`),
    undo
      ? comment(`Takes back the ${count} ${count === 1 ? 'change' : 'changes'} of ${node}.mos, last change first`)
      : comment(`${count} ${count === 1 ? 'change' : 'changes'}; ${node}_undo.mos takes them back`),
    comment('Run: amos <node> <this file>, or through mobatch (README.txt)'),
    '',
    'confbd+',
    'gs+',
    '',
    comment('Stop at once on another node: this file is for one node only'),
    `if $nodename != ${node}`,
    `print This script is for ${node}, not $nodename: nothing changed`,
    'return',
    'fi',
    '',
    'lt all',
    '',
    comment('CV backup before any change'),
    '$date = `date +%y%m%d_%H%M`',
    `cvms ${cvName(run, node, undo)}`,
    '',
  ];
}

const footer = ['', 'confbd-', 'gs-', ''];

/** Why a node name or command cannot be written safely (a blank, a `#`, an LDN that is not `Class=id,…`), or null. */
export function unwritable(change: ScriptChange): string | null {
  if (!SAFE_WORD.test(change.node)) return `node name ${JSON.stringify(change.node)} has characters a script cannot carry`;
  for (const c of [...change.commands, ...change.undo]) {
    if (!isWritableLdn(c.ldn)) return `${c.ldn} is not an LDN a script can carry`;
    const values = c.verb === 'crn' ? c.attributes.map(([, v]) => v) : c.verb === 'set' ? [c.value] : [];
    for (const v of values) {
      if ('text' in v && !SAFE_WORD.test(v.text)) return `value ${JSON.stringify(v.text)} has blanks or characters a script cannot carry`;
      if ('ref' in v && !isWritableLdn(v.ref)) return `${v.ref} is not an LDN a script can carry`;
    }
  }
  return null;
}

export interface NodeScripts {
  node: string;
  /** `<node>.mos` */
  script: string;
  /** `<node>_undo.mos` */
  undo: string;
  changes: number;
  notes: number;
  commands: number;
}

/**
 * Each node's script and undo script. Every command gets a comment line right above it naming its
 * finding; the undo file runs the changes' undo commands last change first (a relation goes before
 * the external cell it pointed at). Notes are comments in the node's script only.
 */
export function writeNodeScripts(plan: ScriptPlan, run: ScriptRun): NodeScripts[] {
  const nodes = [...new Set([...plan.changes.map((c) => c.node), ...plan.notes.map((n) => n.node)])].sort();
  return nodes.map((node) => {
    const changes = plan.changes.filter((c) => c.node === node);
    const notes = plan.notes.filter((n) => n.node === node);
    const script = [...header(run, node, false, changes.length)];
    if (notes.length > 0) {
      script.push(comment('Findings left as they are (no command):'));
      for (const n of notes) script.push(comment(`${n.label} ${n.text}`));
      script.push('');
    }
    let commands = 0;
    for (const change of changes) {
      for (const c of change.commands) {
        script.push(comment(`${change.label} ${change.finding}: ${c.why}`), ...commandLines(c));
        commands += 1;
      }
      script.push('');
    }
    script.push(...footer);
    const undo = [...header(run, node, true, changes.length)];
    for (const change of [...changes].reverse()) {
      for (const c of change.undo) undo.push(comment(`undo ${change.label} ${change.finding}: ${c.why}`), ...commandLines(c));
      undo.push('');
    }
    undo.push(...footer);
    return { node, script: script.join('\n'), undo: undo.join('\n'), changes: changes.length, notes: notes.length, commands };
  });
}

/** The zip's README: what each file does, how to run them with amos and mobatch, and that the undo files exist. */
export function writeReadme(run: ScriptRun, scripts: readonly NodeScripts[], byHand: readonly string[]): string {
  const width = Math.max(...scripts.map((s) => `${s.node}_undo.mos`.length), 'README.txt'.length) + 2;
  const pad = (name: string) => name.padEnd(width);
  const lines = [
    'Cellwise corrective AMOS scripts',
    '================================',
    '',
    `Run ${run.runId}: ${run.title}.`,
    `Made from the run's findings and the network dump as read on ${stamp(run.date)}. Check that the nodes`,
    'still look like that before running anything: a newer dump may already carry some of these changes.',
    '',
    'Files',
    `  ${pad('README.txt')}this file`,
    `  ${pad('sites.txt')}the nodes below, one per line`,
  ];
  for (const s of scripts) {
    const what =
      s.changes > 0 ? `${s.changes} ${s.changes === 1 ? 'change' : 'changes'} (${s.commands} ${s.commands === 1 ? 'command' : 'commands'})` : 'no change';
    lines.push(`  ${pad(`${s.node}.mos`)}${what}${s.notes > 0 ? `, ${s.notes} ${s.notes === 1 ? 'finding' : 'findings'} left as comments` : ''}`);
    lines.push(`  ${pad(`${s.node}_undo.mos`)}takes back what ${s.node}.mos changed`);
  }
  lines.push(
    '',
    'Every script starts with confbd+ (no confirmation prompts) and gs+ (each set prints the value it',
    'replaces), stops at once when run on another node, loads the MO tree (lt all) and takes a CV backup',
    '(cvms CW_<run>_<node>_pre_<date>) before its first change. Each command has a comment line above it',
    'naming the finding it answers. Objects are created with crn (create with the attributes listed, up',
    'to "end"); set and del name exactly one MO (its LDN, anchored with $).',
    '',
    'Run one node (AMOS / moshell opens the node and runs the file):',
    '',
  );
  for (const s of scripts) if (s.changes > 0) lines.push(`   amos ${s.node} ${s.node}.mos`);
  lines.push(
    '',
    'Run several nodes with mobatch (mobatch <sitelist> <script> [logdir] runs one script on every node of',
    'a sitelist; each node here has its own script, so give each its own one-line sitelist):',
    '',
    '   while read node; do echo "$node" > "site_$node.txt"; mobatch "site_$node.txt" "$node.mos" logs; done < sites.txt',
    '',
    'Undo: each <node>_undo.mos deletes what its script created, creates again what it deleted (with the',
    'attributes the dump had) and sets every changed attribute back to the value the dump had. It takes its',
    'own CV backup first. Run it the same way:',
    '',
  );
  for (const s of scripts) if (s.changes > 0) lines.push(`   amos ${s.node} ${s.node}_undo.mos`);
  lines.push('', 'The CV each script takes before its first change (cvls lists them) is the last resort to go back to.');
  if (byHand.length > 0) {
    lines.push('', 'Findings without a command (look at these by hand):', '');
    for (const s of byHand) lines.push(`  - ${s}`);
  }
  lines.push('');
  return lines.join('\n');
}
