import { type Block } from './blocks';
import { type BlockContext, excerpt, refOf, report, truncated } from './context';
import { linkOf, moFacts, sharedMoFacts } from './mo';
import { isRuleAt, skipSpacesAt, trimmedAt } from './text';
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

// The state last found by stateAt (module scratch: rows are read one at a time, synchronously).
let stateCode = 0;
let stateWord = '';
let stateKind = 0;
let stateEnd = 0;

/** Kinds of state words: administrative, operational, other. */
const ADM = 1;
const OP = 2;
const OTHER = 0;

/** The value of the digits last read by digitsAt. */
let digitsValue = 0;

/**
 * End of the run of digits at `i` in `text[.., to)` when it is a whole token of 1 to 15 digits (what
 * {@link toInt} reads), its value then in `digitsValue`; -1 otherwise. A token that is not a number (the
 * MO after the states) is refused at its first character, not walked to its end.
 */
function digitsAt(text: string, i: number, to: number): number {
  let v = 0;
  let j = i;
  while (j < to) {
    const c = text.charCodeAt(j);
    if (c < 48 || c > 57) {
      if (c !== 32 && c !== 9) return -1;
      break;
    }
    v = v * 10 + (c - 48);
    j += 1;
  }
  if (j === i || j - i > 15) return -1;
  digitsValue = v;
  return j;
}

/** `text[from, to)` is `word`, compared in place (no string cut for the known state words). */
function isWordAt(text: string, from: number, to: number, word: string): boolean {
  if (to - from !== word.length) return false;
  for (let k = 0; k < word.length; k += 1) if (text.charCodeAt(from + k) !== word.charCodeAt(k)) return false;
  return true;
}

/**
 * The state word `text[from, to)` into stateWord and stateKind: the known words are the constants
 * (compared in place, never cut), others are cut.
 */
function readWord(text: string, from: number, to: number): void {
  let word: string | null = null;
  switch (to - from) {
    case 6:
      if (isWordAt(text, from, to, 'LOCKED')) word = 'LOCKED';
      break;
    case 7:
      if (isWordAt(text, from, to, 'ENABLED')) word = 'ENABLED';
      break;
    case 8:
      if (isWordAt(text, from, to, 'UNLOCKED')) word = 'UNLOCKED';
      else if (isWordAt(text, from, to, 'DISABLED')) word = 'DISABLED';
      break;
    case 12:
      if (isWordAt(text, from, to, 'SHUTTINGDOWN')) word = 'SHUTTINGDOWN';
      break;
    case 13:
      if (isWordAt(text, from, to, 'SHUTTING_DOWN')) word = 'SHUTTING_DOWN';
      break;
    default:
      break;
  }
  if (word === null) {
    stateWord = text.slice(from, to);
    stateKind = OTHER;
  } else {
    stateWord = word;
    stateKind = word === 'ENABLED' || word === 'DISABLED' ? OP : ADM;
  }
}

/** True when `<digits> (<WORD>)` stands at `i` in `text[.., to)`; its parts are then in stateCode, stateWord, stateKind and stateEnd. */
function stateAt(text: string, i: number, to: number): boolean {
  const codeEnd = digitsAt(text, i, to);
  if (codeEnd < 0) return false;
  const open = codeEnd + 1;
  if (open >= to || text.charCodeAt(codeEnd) !== 32 || text.charCodeAt(open) !== 40) return false;
  // The first `)` after the `(`, at most 40 characters on (as `indexOf` in the line, then the distance).
  const last = Math.min(to - 1, open + 40);
  let close = open + 1;
  while (close <= last && text.charCodeAt(close) !== 41) close += 1;
  if (close > last) return false;
  stateCode = digitsValue;
  readWord(text, open + 1, close);
  stateEnd = close + 1;
  return true;
}

const NO_ROW: StateRow = { proxy: null, admState: null, admCode: null, opState: null, opCode: null, mo: '' };

/** Reads the st row `text[from, to)` into `row`; false when the line is not one. */
function readStateRow(text: string, from: number, to: number, row: StateRow): boolean {
  let i = skipSpacesAt(text, from, to);
  let proxy: number | null = null;
  const first = digitsAt(text, i, to);
  // A number is the proxy unless it is itself a state (`1 (ENABLED)`, rows printed without proxies).
  if (first >= 0) {
    const asProxy = digitsValue;
    if (!stateAt(text, i, to)) {
      proxy = asProxy;
      i = skipSpacesAt(text, first, to);
    }
  }
  // At most three states, in order.
  let count = 0;
  let code0 = 0;
  let word0 = '';
  let kind0 = OTHER;
  let code1 = 0;
  let word1 = '';
  let kind1 = OTHER;
  let code2 = 0;
  let word2 = '';
  let kind2 = OTHER;
  while (count < 3 && stateAt(text, i, to)) {
    if (count === 0) {
      code0 = stateCode;
      word0 = stateWord;
      kind0 = stateKind;
    } else if (count === 1) {
      code1 = stateCode;
      word1 = stateWord;
      kind1 = stateKind;
    } else {
      code2 = stateCode;
      word2 = stateWord;
      kind2 = stateKind;
    }
    count += 1;
    i = skipSpacesAt(text, stateEnd, to);
  }
  const mo = trimmedAt(text, i, to);
  if (!mo || count === 0) return false;

  // adm / op: index of the state (-1: none). Known words first, then the others by position, Adm before Op.
  let adm = -1;
  let op = -1;
  let unknown = 0; // bit k: state k is of no known word (or a second one of its kind)
  for (let k = 0; k < count; k += 1) {
    const kind = k === 0 ? kind0 : k === 1 ? kind1 : kind2;
    if (adm < 0 && kind === ADM) adm = k;
    else if (op < 0 && kind === OP) op = k;
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
  if (!readStateRow(line, 0, line.length, row)) return null;
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
  const all = block.text;
  const { starts, ends, ns } = block;
  for (let k = 0; k < starts.length; k += 1) {
    const s = starts[k]!;
    const e = ends[k]!;
    const n = ns[k]!;
    if (n === block.headerLine) continue;
    const first = skipSpacesAt(all, s, e);
    if (first === e || isRuleAt(all, s, e)) continue;
    // Only a line starting (once trimmed) with P or T can be the head or the footer: rows are not trimmed.
    const c0 = all.charCodeAt(first);
    if (c0 === 80 || c0 === 84 || c0 <= 32 || c0 >= 0xa0) {
      const trimmed = all.slice(s, e).trim();
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
    if (!readStateRow(all, s, e, row)) {
      report(ctx, block, 'unparsed-line', `not a state row: ${excerpt(all.slice(s, e))}`, n);
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
