import { type CommandFamily } from './types';
import { isBlank, isRule, tokens } from './text';

/**
 * One command's output saved without its prompt: an engineer pastes what `hget retsubunit …`, `st cell`,
 * `get . attr` or `lt all` printed into a file of its own, sometimes through a spreadsheet that saves
 * every row wrapped in CSV quotes (`"MO","electricalAntennaTilt"` or the whole line as one field). The
 * command is told by its table, the node by the `Connected to …`/`MeContext=` line (else the file name).
 */

export interface PromptlessCommand {
  command: string;
  family: CommandFamily;
}

const ST_HEADER_RE = /^Proxy\s+Adm State\s+Op\. State\s+MO\b/;
const IDENTIFIER_RE = /^[A-Za-z][A-Za-z0-9_.]*$/;
const TOTAL_RE = /^Total:\s*\d+\s+MOs?\b/;
const LT_RE = /\bLoaded\s+\d+\s+MOs\b|^Fetching MO tree\b/;
/** `Connected to 10.1.2.3 (SubNetwork=ONRM_ROOT_MO,SubNetwork=RAN,MeContext=LX0001,ManagedElement=1)`, or any DN with a MeContext. */
const ME_CONTEXT_RE = /\bMeContext=([A-Za-z0-9][A-Za-z0-9_.-]*)/;

/** The command a table says it came from, read from its header lines; null when none is there. */
export function promptlessCommand(lines: ReadonlyArray<string | null>): PromptlessCommand | null {
  let lt = false;
  let total = false;
  for (const line of lines) {
    if (line === null || isBlank(line) || isRule(line)) continue;
    const trimmed = line.trim();
    if (ST_HEADER_RE.test(trimmed)) return { command: 'st', family: 'st' };
    if (trimmed.startsWith('MO ') || trimmed.startsWith('MO\t')) {
      const tk = tokens(trimmed);
      if (tk.length === 3 && tk[1] === 'Attribute' && tk[2] === 'Value') return { command: 'get', family: 'get' };
      const names = tk.slice(1);
      if (names.length > 0 && names.every((t) => IDENTIFIER_RE.test(t))) return { command: `hget ${names.join('|')}`, family: 'hget' };
    }
    if (LT_RE.test(trimmed)) lt = true;
    if (TOTAL_RE.test(trimmed)) total = true;
  }
  // `lt all` prints its MO count and no table: a `Total: N MOs` without any table header is its.
  return lt || total ? { command: 'lt all', family: 'lt' } : null;
}

/** The node a pasted output names (`Connected to … MeContext=X`), or null. */
export function promptlessNode(lines: ReadonlyArray<string | null>): string | null {
  let fallback: string | null = null;
  for (const line of lines) {
    if (line === null) continue;
    const m = ME_CONTEXT_RE.exec(line);
    if (!m) continue;
    // The connection line names the node the output is of; any other DN only when there is none.
    if (/^\s*Connect(?:ed|ing) to\b/.test(line)) return m[1]!;
    fallback ??= m[1]!;
  }
  return fallback;
}

/** A CSV record's fields; null when a quote is left open (the row cannot be read). */
export function csvFields(line: string): string[] | null {
  const fields: string[] = [];
  let i = 0;
  const len = line.length;
  for (;;) {
    if (line.charCodeAt(i) === 34) {
      let value = '';
      let j = i + 1;
      for (;;) {
        const q = line.indexOf('"', j);
        if (q < 0) return null;
        value += line.slice(j, q);
        if (line.charCodeAt(q + 1) === 34) {
          value += '"';
          j = q + 2;
          continue;
        }
        j = q + 1;
        break;
      }
      fields.push(value);
      while (j < len && line.charCodeAt(j) === 32) j += 1;
      if (j >= len) return fields;
      if (line.charCodeAt(j) !== 44) return null;
      i = j + 1;
    } else {
      const comma = line.indexOf(',', i);
      if (comma < 0) {
        fields.push(line.slice(i));
        return fields;
      }
      fields.push(line.slice(i, comma));
      i = comma + 1;
    }
  }
}

export interface Unquoted {
  /** The lines as the table printed them (null: binary, kept as is for the splitter to report). */
  lines: Array<string | null>;
  /** Line numbers (1-based) of rows whose quotes do not close (returned as written; the caller reports them). */
  unreadable: number[];
}

/**
 * The lines without their CSV quoting, when the file is quoted (its first non-blank line starts with a
 * `"`). A record of one field is the line as printed; records of several fields are laid out again as
 * columns (each as wide as its widest field, two spaces apart), which is how the table parsers cut
 * `hget` rows. Unquoted files are returned as they are.
 */
export function unquoteCsv(lines: ReadonlyArray<string | null>): Unquoted {
  const first = lines.find((l) => l !== null && !isBlank(l));
  if (first === undefined || first === null || !first.trimStart().startsWith('"')) return { lines: [...lines], unreadable: [] };
  const records: Array<string[] | null> = lines.map((l) => (l === null || isBlank(l) ? null : csvFields(l.trim())));
  const widths: number[] = [];
  for (const r of records) if (r && r.length > 1) r.forEach((f, k) => (widths[k] = Math.max(widths[k] ?? 0, f.trimEnd().length)));
  const unreadable: number[] = [];
  const out = lines.map((line, k) => {
    if (line === null || isBlank(line)) return line;
    const r = records[k];
    if (!r) {
      unreadable.push(k + 1);
      return line;
    }
    if (r.length === 1) return r[0]!;
    return r
      .map((f, c) => (c === r.length - 1 ? f.trimEnd() : f.trimEnd().padEnd(widths[c]!)))
      .join('  ')
      .trimEnd();
  });
  return { lines: out, unreadable };
}
