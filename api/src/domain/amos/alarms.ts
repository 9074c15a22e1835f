import { type Block } from './blocks';
import { type BlockContext, excerpt, refOf, report, truncated } from './context';
import { instantOf, tableTimeAt } from './header';
import { isClassNameAt, moFacts, sharedMoFacts } from './mo';
import { isBlankAt } from './blocks';
import { isRuleAt, isTrimmed, NextChar, skipSpaces, skipSpacesAt, trimmedAt } from './text';
import { type Alarm, type Severity, type SeverityCode, type TimeBasis } from './types';

/**
 * `alt` / `altk`: the active alarm list. Checked against public moshell logs (MGW `altk`, RBS/MSRBS `alt`):
 *
 *     UNACKNOWLEDGED ALARMS: 0                                   (altk, and alt on CPP nodes)
 *     ====================================================================================
 *     Date & Time (UTC)   S Specific Problem                    MO (Cause/AdditionalInfo)
 *     ====================================================================================
 *     2024-05-02 10:11:12 M Resource Configuration Failure      ENodeBFunction=1,EUtranCellFDD=LX0001_1 (…)
 *
 *     ACKNOWLEDGED ALARMS: 1
 *     Date & Time (Local) S Specific Problem                    MO (Cause/AdditionalInfo) Operator
 *     2015-05-28 02:39:37 w MTP3b Link Out of Service           Mtp3bSpItu=0-16173,… (… started tracking …) dell
 *     >>> Total: 1 Alarms (0 Critical, 0 Major)
 *
 * The Specific Problem column is padded to a fixed width, but long problems run into the MO column
 * with a single space (`Calendar Clock All NTP Servers Unavailable SysM=1`): the MO starts at the
 * header's MO column when a `Class=` token stands there, else at the first `Class=` token.
 */

export const SEVERITIES: Record<SeverityCode, Severity> = { C: 'Critical', M: 'Major', m: 'Minor', w: 'Warning' };

export function severityOf(code: string): Severity | null {
  return Object.prototype.hasOwnProperty.call(SEVERITIES, code) ? SEVERITIES[code as SeverityCode] : null;
}

export interface AlarmText {
  specificProblem: string;
  mo: string;
  additionalInfo: string;
  operator: string | null;
}

// The parts found by splitAt (module scratch: rows are read one at a time, synchronously).
let partProblem = '';
let partMo = '';
let partInfo = '';
let partOperator: string | null = null;

/**
 * Splits `<Specific Problem> <MO> (<additional info>) [<operator>]` starting at `from`. `moCol` is the
 * MO column of the table header (a hint only). Additional info is everything between the first `(`
 * after the MO and the last `)`, nested parentheses included.
 */
export function splitAlarmText(line: string, from: number, moCol: number | null, withOperator: boolean): AlarmText {
  splitAt(new RowScan(line, true), 0, from, line.length, moCol, withOperator);
  return { specificProblem: partProblem, mo: partMo, additionalInfo: partInfo, operator: partOperator };
}

/**
 * The characters an alarm row is cut at, searched for in the whole block text (each found once for
 * the rows read in order, see {@link NextChar}).
 */
class RowScan {
  readonly space: NextChar;
  readonly tab: NextChar | null;
  readonly eq: NextChar;
  readonly paren: NextChar;
  readonly amp: NextChar;
  constructor(
    readonly text: string,
    tabs: boolean,
  ) {
    this.space = new NextChar(text, ' ');
    this.tab = tabs ? new NextChar(text, '\t') : null;
    this.eq = new NextChar(text, '=');
    this.paren = new NextChar(text, '(');
    this.amp = new NextChar(text, '&');
  }

  /** {@link skipToken} in the line ending at `to`. */
  tokenEnd(i: number, to: number): number {
    if (i >= to) return i;
    let end = this.space.at(i);
    if (this.tab !== null) {
      const tab = this.tab.at(i);
      if (tab < end) end = tab;
    }
    return end < to ? end : to;
  }
}

/** `text[i, end)` is a token that {@link looksLikeMo}, given `eq`, the first `=` at or after `i`. */
function moTokenAt(text: string, i: number, end: number, eq: number): boolean {
  return eq > i && eq < end && eq - i < 80 && isClassNameAt(text, i, eq);
}

/**
 * {@link splitAlarmText} of the line `text[lineStart, to)` into the module scratch: read in place, each
 * part cut once. `from` and `moCol` are positions in `text`.
 */
function splitAt(scan: RowScan, lineStart: number, from: number, to: number, moCol: number | null, withOperator: boolean): void {
  const text = scan.text;
  let moStart = -1;
  if (moCol !== null && moCol > from && moCol < to && text.charCodeAt(moCol - 1) === 32 && text.charCodeAt(moCol) !== 32) {
    if (moTokenAt(text, moCol, scan.tokenEnd(moCol, to), scan.eq.at(moCol))) moStart = moCol;
  }
  if (moStart < 0) {
    // Only a token holding an `=` can be the MO: tokens are skipped from one `=` to the next (the token
    // holding it starts after the last space or tab before it), not cut and tested one by one.
    let i = from;
    let eq = scan.eq.at(from);
    while (eq < to && i < to) {
      let start = eq;
      while (start > i && text.charCodeAt(start - 1) !== 32 && text.charCodeAt(start - 1) !== 9) start -= 1;
      i = start;
      const end = scan.tokenEnd(i, to);
      if (moTokenAt(text, i, end, eq)) {
        moStart = i;
        break;
      }
      i = skipSpacesAt(text, end, to);
      eq = scan.eq.at(i);
    }
  }
  partOperator = null;
  if (moStart < 0) {
    partProblem = trimmedAt(text, from, to);
    partMo = '';
    partInfo = '';
    return;
  }

  partProblem = trimmedAt(text, from, moStart);
  // The first ` (` after the MO, found by its `(`: a search for two characters starting with a space
  // stops at every space of the row.
  let paren = -1;
  for (let p = scan.paren.at(moStart + 1); p < to; p = scan.paren.at(p + 1)) {
    if (text.charCodeAt(p - 1) === 32) {
      paren = p - 1;
      break;
    }
  }
  if (paren < 0) {
    const moEnd = scan.tokenEnd(moStart, to);
    const after = trimmedAt(text, moEnd, to);
    partMo = text.slice(moStart, moEnd);
    partInfo = withOperator ? '' : after;
    partOperator = withOperator && after ? after : null;
    return;
  }
  partMo = trimmedAt(text, moStart, paren);
  const open = paren + 1;
  // The last `)` of the line: it ends the row, or nearly.
  let close = to - 1;
  while (close >= lineStart && text.charCodeAt(close) !== 41) close -= 1;
  if (withOperator) {
    if (close > open) {
      partInfo = text.slice(open + 1, close);
      partOperator = trimmedAt(text, close + 1, to) || null;
    } else partInfo = trimmedAt(text, open + 1, to);
    return;
  }
  // The rest without trailing white space and one closing parenthesis.
  let end = to;
  while (end > open + 1 && isTrimmed(text.charCodeAt(end - 1))) end -= 1;
  if (end > open + 1 && text.charCodeAt(end - 1) === 41) end -= 1;
  partInfo = text.slice(open + 1, end);
}

interface Table {
  basis: TimeBasis;
  moCol: number | null;
  withOperator: boolean;
  acknowledged: boolean;
}

interface Section {
  acknowledged: boolean;
  declared: number;
  rows: number;
  line: number;
}

const FOOTER_RE = /^>>> Total:\s*(\d+)\s+Alarms?(?:\s*\(\s*(\d+)\s+Critical,\s*(\d+)\s+Major)?/;
const SECTION_RE = /^(UN)?ACKNOWLEDGED ALARMS:\s*(\d+)/;

/** Severity of a code character, and the code as a string (C/M/m/w). */
function severityOfCode(c: number): Severity | null {
  switch (c) {
    case 67:
      return 'Critical';
    case 77:
      return 'Major';
    case 109:
      return 'Minor';
    case 119:
      return 'Warning';
    default:
      return null;
  }
}

const CODES: Record<Severity, SeverityCode> = { Critical: 'C', Major: 'M', Minor: 'm', Warning: 'w' };

/** `text[from, to)` holds `Date & Time`, looked for by its rare `&`. */
function hasDateTime(scan: RowScan, from: number, to: number): boolean {
  const text = scan.text;
  for (let i = scan.amp.at(from); i < to; i = scan.amp.at(i + 1)) {
    if (i - 5 >= from && i + 6 <= to && text.charCodeAt(i - 5) === 68 && text.slice(i - 5, i + 6) === 'Date & Time') return true;
  }
  return false;
}

/**
 * Alarms of one `alt`/`altk` block; footer and section counts that disagree with the rows become
 * problems. Lines are read in place in the block's text (a character read from a cut string costs
 * more); only the lines that are not rows, and the parts of a row, are cut.
 */
export function parseAlarmBlock(block: Block, ctx: BlockContext): Alarm[] {
  const alarms: Alarm[] = [];
  let table: Table | null = null;
  let section: Section | null = null;
  let tableSeen = false;
  let footerSeen = false;
  let lastRow = -1; // index in alarms of the row a continuation line belongs to
  // The last row's line, and its text once a continuation line joins it.
  let lastStart = 0;
  let lastEnd = 0;
  let lastText: string | null = null;

  const closeSection = (): void => {
    if (section && section.rows !== section.declared) {
      const name = section.acknowledged ? 'ACKNOWLEDGED' : 'UNACKNOWLEDGED';
      report(ctx, block, 'count-mismatch', `${name} ALARMS says ${section.declared}, rows read: ${section.rows}`, section.line);
    }
    section = null;
  };

  const all = block.text;
  const { starts, ends, ns } = block;
  const scan = new RowScan(all, ctx.tabs);
  for (let k = 0; k < starts.length; k += 1) {
    const s = starts[k]!;
    const e = ends[k]!;
    const n = ns[k]!;
    if (n === block.headerLine || isRuleAt(all, s, e)) continue;
    if (isBlankAt(all, s, e)) {
      lastRow = -1;
      continue;
    }
    // The first character trim() keeps: section heads start with U or A, the footer with >, rows with a
    // digit; a row is not trimmed.
    let first = s;
    while (first < e && isTrimmed(all.charCodeAt(first))) first += 1;
    const c0 = first < e ? all.charCodeAt(first) : -1;
    let text: string | null = null;
    let trimmed: string | null = null;
    if (c0 === 85 || c0 === 65) {
      text = all.slice(s, e);
      trimmed = text.trim();
      const sm = SECTION_RE.exec(trimmed);
      if (sm) {
        closeSection();
        section = { acknowledged: !sm[1], declared: Number(sm[2]), rows: 0, line: n };
        table = null;
        lastRow = -1;
        continue;
      }
    }
    if (hasDateTime(scan, s, e)) {
      text ??= all.slice(s, e);
      if (text.includes('Specific Problem')) {
        const mo = text.indexOf(' MO');
        table = {
          basis: text.includes('(UTC)') ? 'UTC' : 'Local',
          moCol: mo < 0 ? null : mo + 1,
          withOperator: /\bOperator\s*$/.test(text),
          acknowledged: section?.acknowledged ?? false,
        };
        tableSeen = true;
        lastRow = -1;
        continue;
      }
    }
    if (c0 === 62) {
      text ??= all.slice(s, e);
      trimmed ??= text.trim();
      if (trimmed.startsWith('>>> Total:')) {
        closeSection();
        footerSeen = true;
        table = null;
        lastRow = -1;
        checkFooter(trimmed, alarms, block, ctx, n);
        continue;
      }
    }
    if (!table) continue; // chatter before the table: Connecting to…, Trying file=…, Nr of active alarms…

    const time = tableTimeAt(all, s, e);
    if (time) {
      const sevAt = skipSpacesAt(all, s + 19, e);
      const severity = sevAt < e ? severityOfCode(all.charCodeAt(sevAt)) : null;
      if (!severity || !(sevAt + 1 >= e || all.charCodeAt(sevAt + 1) === 32)) {
        report(ctx, block, 'unparsed-line', `alarm row without a severity C/M/m/w: ${excerpt(text ?? all.slice(s, e))}`, n);
        lastRow = -1;
        continue;
      }
      splitAt(scan, s, skipSpacesAt(all, sevAt + 1, e), e, table.moCol === null ? null : s + table.moCol, table.withOperator);
      const mo = partMo;
      if (!mo) report(ctx, block, 'unparsed-line', `alarm row without an MO: ${excerpt(text ?? all.slice(s, e))}`, n);
      const facts = sharedMoFacts(mo);
      alarms.push({
        node: block.node,
        command: block.command,
        source: refOf(ctx, n),
        time: all.slice(s, s + 19),
        timeBasis: table.basis,
        at: instantOf(time, table.basis, block.header, ctx.defaultOffset),
        severity,
        severityCode: CODES[severity],
        specificProblem: partProblem,
        mo,
        moClass: facts.moClass,
        tech: facts.tech,
        cell: facts.cell,
        additionalInfo: partInfo,
        acknowledged: table.acknowledged,
        operator: partOperator,
      });
      lastStart = s;
      lastEnd = e;
      lastText = null;
      lastRow = alarms.length - 1;
      if (section) section.rows += 1;
      continue;
    }
    text ??= all.slice(s, e);
    if (lastRow >= 0) {
      // A row that runs on: a terminal wrap (no indent) continues the text as is, an indented line after a space.
      trimmed ??= text.trim();
      const before: string = lastText ?? all.slice(lastStart, lastEnd);
      const joined: string = text.charCodeAt(0) === 32 ? `${before} ${trimmed}` : `${before}${text}`;
      lastText = joined;
      const prev = alarms[lastRow]!;
      const sevAt = skipSpaces(joined, 19);
      const parts = splitAlarmText(joined, skipSpaces(joined, sevAt + 1), table.moCol, table.withOperator);
      Object.assign(prev, { specificProblem: parts.specificProblem, ...moFacts(parts.mo), additionalInfo: parts.additionalInfo, operator: parts.operator });
      continue;
    }
    report(ctx, block, 'unparsed-line', `not an alarm row: ${excerpt(text)}`, n);
  }
  closeSection();
  // `>>> Total: 0 Alarms` alone is a complete (empty) answer.
  if (!footerSeen) truncated(ctx, block, tableSeen ? 'alarm table without its >>> Total footer' : 'no alarm table');
  return alarms;
}

function checkFooter(trimmed: string, alarms: Alarm[], block: Block, ctx: BlockContext, n: number): void {
  const m = FOOTER_RE.exec(trimmed);
  if (!m) {
    report(ctx, block, 'unparsed-line', `unreadable alarm footer: ${excerpt(trimmed)}`, n);
    return;
  }
  const total = Number(m[1]);
  const critical = alarms.filter((a) => a.severityCode === 'C').length;
  const major = alarms.filter((a) => a.severityCode === 'M').length;
  const countsMatch = m[2] === undefined || (Number(m[2]) === critical && Number(m[3]) === major);
  if (total !== alarms.length || !countsMatch) {
    const said = m[2] === undefined ? `${total}` : `${total} (${m[2]} Critical, ${m[3]} Major)`;
    report(ctx, block, 'count-mismatch', `footer says ${said} alarms, rows read: ${alarms.length} (${critical} Critical, ${major} Major)`, n);
  }
}
