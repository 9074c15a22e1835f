import { type Block } from './blocks';
import { type BlockContext, excerpt, refOf, report, truncated } from './context';
import { linkOf, moFacts, sharedMoFacts } from './mo';
import { isBlank, isRule, skipSpaces, skipToken, trimmedSlice } from './text';
import { type MoState } from './types';

/**
 * `st cell`, `st term`, `st mme`…: checked against public moshell/AMOS logs (RNC IubLinks, MGW plug-in
 * units, MSRBS NRCellDU and termination points):
 *
 *     ===================================================================================
 *     Proxy  Adm State     Op. State     MO
 *     ===================================================================================
 *       854  1 (UNLOCKED)  1 (ENABLED)   GNBDUFunction=1,NRCellDU=X_111
 *     101137  0 (LOCKED)    0 (DISABLED)  RncFunction=1,IubLink=Iub_ADGUBR
 *       679                1 (ENABLED)   ENodeBFunction=1,…,EranInterMeLink=1
 *     ===================================================================================
 *     Total: 3 MOs
 *
 * The Proxy column is right-aligned and a 6-digit proxy pushes the row right, so columns are not cut
 * by position: after the proxy come one or two `<code> (<WORD>)` states and the MO. Which state is
 * which follows from its word (LOCKED/UNLOCKED/SHUTTINGDOWN are administrative, ENABLED/DISABLED
 * operational); a blank Adm State simply leaves one state.
 */

const ADM_WORDS = new Set(['LOCKED', 'UNLOCKED', 'SHUTTINGDOWN', 'SHUTTING_DOWN']);
const OP_WORDS = new Set(['ENABLED', 'DISABLED']);
const TOTAL_RE = /^Total:\s*(\d+)\s+MOs?\b/;

/** The parts of an st row, read in place (one object reused row after row). */
interface StateRow {
  proxy: number | null;
  admState: string | null;
  admCode: number | null;
  opState: string | null;
  opCode: number | null;
  mo: string;
}

/** `s[from, to)` as a non-negative integer when it is 1 to 15 digits ({@link toInt} without the cut). */
function intAt(s: string, from: number, to: number): number | null {
  if (to <= from || to - from > 15) return null;
  let v = 0;
  for (let i = from; i < to; i += 1) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return null;
    v = v * 10 + (c - 48);
  }
  return v;
}

// The state last found by stateAt (module scratch: rows are read one at a time, synchronously).
let stateCode = 0;
let stateWord = '';
let stateEnd = 0;

/** True when `<digits> (<WORD>)` stands at `i`; its parts are then in stateCode, stateWord and stateEnd. */
function stateAt(line: string, i: number): boolean {
  const codeEnd = skipToken(line, i);
  const code = intAt(line, i, codeEnd);
  if (code === null) return false;
  const open = codeEnd + 1;
  if (line.charCodeAt(codeEnd) !== 32 || line.charCodeAt(open) !== 40) return false;
  const close = line.indexOf(')', open);
  if (close < 0 || close - open > 40) return false;
  stateCode = code;
  stateWord = line.slice(open + 1, close);
  stateEnd = close + 1;
  return true;
}

const NO_ROW: StateRow = { proxy: null, admState: null, admCode: null, opState: null, opCode: null, mo: '' };

/** Reads one st row into `row`; false when the line is not one. */
function readStateRow(line: string, row: StateRow): boolean {
  let i = skipSpaces(line, 0);
  let proxy: number | null = null;
  const first = skipToken(line, i);
  const asProxy = intAt(line, i, first);
  // A number is the proxy unless it is itself a state (`1 (ENABLED)`, rows printed without proxies).
  if (asProxy !== null && !stateAt(line, i)) {
    proxy = asProxy;
    i = skipSpaces(line, first);
  }
  // At most three states, in order.
  let count = 0;
  let code0 = 0;
  let word0 = '';
  let code1 = 0;
  let word1 = '';
  let code2 = 0;
  let word2 = '';
  while (count < 3 && stateAt(line, i)) {
    if (count === 0) {
      code0 = stateCode;
      word0 = stateWord;
    } else if (count === 1) {
      code1 = stateCode;
      word1 = stateWord;
    } else {
      code2 = stateCode;
      word2 = stateWord;
    }
    count += 1;
    i = skipSpaces(line, stateEnd);
  }
  const mo = trimmedSlice(line, i);
  if (!mo || count === 0) return false;

  // adm / op: index of the state (-1: none). Known words first, then the others by position, Adm before Op.
  let adm = -1;
  let op = -1;
  let unknown = 0; // bit k: state k is of no known word (or a second one of its kind)
  for (let k = 0; k < count; k += 1) {
    const word = k === 0 ? word0 : k === 1 ? word1 : word2;
    if (adm < 0 && ADM_WORDS.has(word)) adm = k;
    else if (op < 0 && OP_WORDS.has(word)) op = k;
    else unknown |= 1 << k;
  }
  for (let k = 0; k < count; k += 1) {
    if ((unknown & (1 << k)) === 0) continue;
    if (count >= 2 && adm < 0 && k === 0) adm = k;
    else if (op < 0) op = k;
  }
  row.proxy = proxy;
  row.admState = adm < 0 ? null : adm === 0 ? word0 : adm === 1 ? word1 : word2;
  row.admCode = adm < 0 ? null : adm === 0 ? code0 : adm === 1 ? code1 : code2;
  row.opState = op < 0 ? null : op === 0 ? word0 : op === 1 ? word1 : word2;
  row.opCode = op < 0 ? null : op === 0 ? code0 : op === 1 ? code1 : code2;
  row.mo = mo;
  return true;
}

/** One st row; null when the line is not one. */
export function parseStateRow(line: string): Omit<MoState, 'node' | 'command' | 'source'> | null {
  const row = { ...NO_ROW };
  if (!readStateRow(line, row)) return null;
  return {
    proxy: row.proxy,
    admState: row.admState,
    admCode: row.admCode,
    opState: row.opState,
    opCode: row.opCode,
    ...moFacts(row.mo),
    link: linkOf(row.mo),
  };
}

/** States of one `st` block; a `Total: N MOs` that disagrees with the rows is a problem. */
export function parseStateBlock(block: Block, ctx: BlockContext): MoState[] {
  const out: MoState[] = [];
  let open = false;
  let seen = false;
  let rows = 0; // rows of the current table
  const row: StateRow = { ...NO_ROW };
  for (let k = 0; k < block.lines.length; k += 1) {
    const text = block.lines[k]!;
    const n = block.ns[k]!;
    if (n === block.headerLine || isRule(text) || isBlank(text)) continue;
    // Only a line starting (once trimmed) with P or T can be the head or the footer: rows are not trimmed.
    const c0 = text.charCodeAt(skipSpaces(text, 0));
    if (c0 === 80 || c0 === 84 || c0 <= 32 || c0 >= 0xa0) {
      const trimmed = text.trim();
      if (trimmed.startsWith('Proxy') && trimmed.includes('State') && / MO\b/.test(trimmed)) {
        open = true;
        seen = true;
        continue;
      }
      const total = TOTAL_RE.exec(trimmed);
      if (total) {
        // Also a bare `Total: 0 MOs` printed without a table.
        open = false;
        seen = true;
        if (Number(total[1]) !== rows) report(ctx, block, 'count-mismatch', `footer says ${total[1]} MOs, rows read: ${rows}`, n);
        rows = 0;
        continue;
      }
    }
    if (!open) continue;
    if (!readStateRow(text, row)) {
      report(ctx, block, 'unparsed-line', `not a state row: ${excerpt(text)}`, n);
      continue;
    }
    const facts = sharedMoFacts(row.mo);
    out.push({
      node: block.node,
      command: block.command,
      source: refOf(ctx, n),
      proxy: row.proxy,
      admState: row.admState,
      admCode: row.admCode,
      opState: row.opState,
      opCode: row.opCode,
      mo: row.mo,
      moClass: facts.moClass,
      tech: facts.tech,
      cell: facts.cell,
      link: facts.link,
    });
    rows += 1;
  }
  if (!seen) truncated(ctx, block, 'no state table');
  else if (open) truncated(ctx, block, 'state table without its Total: N MOs footer');
  return out;
}
