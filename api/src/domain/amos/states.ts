import { type Block } from './blocks';
import { type BlockContext, excerpt, refOf, report, truncated } from './context';
import { linkOf, moFacts } from './mo';
import { isBlank, isRule, skipSpaces, skipToken, toInt } from './text';
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

interface StateToken {
  code: number;
  word: string;
  end: number;
}

/** `<digits> (<WORD>)` at `i`, or null. */
function stateAt(line: string, i: number): StateToken | null {
  const codeEnd = skipToken(line, i);
  const code = toInt(line.slice(i, codeEnd));
  if (code === null) return null;
  const open = codeEnd + 1;
  if (line.charCodeAt(codeEnd) !== 32 || line.charCodeAt(open) !== 40) return null;
  const close = line.indexOf(')', open);
  if (close < 0 || close - open > 40) return null;
  return { code, word: line.slice(open + 1, close), end: close + 1 };
}

/** One st row; null when the line is not one. */
export function parseStateRow(line: string): Omit<MoState, 'node' | 'command' | 'source'> | null {
  let i = skipSpaces(line, 0);
  let proxy: number | null = null;
  const first = skipToken(line, i);
  const asProxy = toInt(line.slice(i, first));
  // A number is the proxy unless it is itself a state (`1 (ENABLED)`, rows printed without proxies).
  if (asProxy !== null && !stateAt(line, i)) {
    proxy = asProxy;
    i = skipSpaces(line, first);
  }
  const states: StateToken[] = [];
  for (let s = stateAt(line, i); s && states.length < 3; s = stateAt(line, i)) {
    states.push(s);
    i = skipSpaces(line, s.end);
  }
  const mo = line.slice(i).trim();
  if (!mo || states.length === 0) return null;

  let adm: StateToken | null = null;
  let op: StateToken | null = null;
  const unknown: StateToken[] = [];
  for (const s of states) {
    if (ADM_WORDS.has(s.word) && !adm) adm = s;
    else if (OP_WORDS.has(s.word) && !op) op = s;
    else unknown.push(s);
  }
  // Words we do not know: by position, Adm before Op.
  for (const s of unknown) {
    if (states.length >= 2 && !adm && s === states[0]) adm = s;
    else if (!op) op = s;
  }
  return {
    proxy,
    admState: adm?.word ?? null,
    admCode: adm?.code ?? null,
    opState: op?.word ?? null,
    opCode: op?.code ?? null,
    ...moFacts(mo),
    link: linkOf(mo),
  };
}

/** States of one `st` block; a `Total: N MOs` that disagrees with the rows is a problem. */
export function parseStateBlock(block: Block, ctx: BlockContext): MoState[] {
  const out: MoState[] = [];
  let open = false;
  let seen = false;
  let rows = 0; // rows of the current table
  for (const { text, n } of block.lines) {
    if (n === block.headerLine || isRule(text) || isBlank(text)) continue;
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
    if (!open) continue;
    const row = parseStateRow(text);
    if (!row) {
      report(ctx, block, 'unparsed-line', `not a state row: ${excerpt(text)}`, n);
      continue;
    }
    out.push({ node: block.node, command: block.command, source: refOf(ctx, n), ...row });
    rows += 1;
  }
  if (!seen) truncated(ctx, block, 'no state table');
  else if (open) truncated(ctx, block, 'state table without its Total: N MOs footer');
  return out;
}
