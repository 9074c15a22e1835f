import { type Block } from './blocks';
import { type BlockContext, excerpt, refOf, report, truncated } from './context';
import { instantOf, tableTime } from './header';
import { looksLikeMo, moFacts, sharedMoFacts } from './mo';
import { isBlank, isRule, skipSpaces, skipToken } from './text';
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

/**
 * Splits `<Specific Problem> <MO> (<additional info>) [<operator>]` starting at `from`. `moCol` is the
 * MO column of the table header (a hint only). Additional info is everything between the first `(`
 * after the MO and the last `)`, nested parentheses included.
 */
export function splitAlarmText(line: string, from: number, moCol: number | null, withOperator: boolean): AlarmText {
  let moStart = -1;
  if (moCol !== null && moCol > from && moCol < line.length && line.charCodeAt(moCol - 1) === 32 && line.charCodeAt(moCol) !== 32) {
    if (looksLikeMo(line.slice(moCol, skipToken(line, moCol)))) moStart = moCol;
  }
  for (let i = from; moStart < 0 && i < line.length;) {
    const end = skipToken(line, i);
    if (looksLikeMo(line.slice(i, end))) moStart = i;
    i = skipSpaces(line, end);
  }
  if (moStart < 0) return { specificProblem: line.slice(from).trim(), mo: '', additionalInfo: '', operator: null };

  const specificProblem = line.slice(from, moStart).trim();
  const paren = line.indexOf(' (', moStart);
  if (paren < 0) {
    const moEnd = skipToken(line, moStart);
    const after = line.slice(moEnd).trim();
    return { specificProblem, mo: line.slice(moStart, moEnd), additionalInfo: withOperator ? '' : after, operator: withOperator && after ? after : null };
  }
  const mo = line.slice(moStart, paren).trim();
  const open = paren + 1;
  const close = line.lastIndexOf(')');
  if (withOperator) {
    if (close > open) {
      const after = line.slice(close + 1).trim();
      return { specificProblem, mo, additionalInfo: line.slice(open + 1, close), operator: after || null };
    }
    return { specificProblem, mo, additionalInfo: line.slice(open + 1).trim(), operator: null };
  }
  let info = line.slice(open + 1).trimEnd();
  if (info.endsWith(')')) info = info.slice(0, -1);
  return { specificProblem, mo, additionalInfo: info, operator: null };
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

/** Alarms of one `alt`/`altk` block; footer and section counts that disagree with the rows become problems. */
export function parseAlarmBlock(block: Block, ctx: BlockContext): Alarm[] {
  const alarms: Alarm[] = [];
  const rowTexts: string[] = [];
  let table: Table | null = null;
  let section: Section | null = null;
  let tableSeen = false;
  let footerSeen = false;
  let lastRow = -1; // index in alarms of the row a continuation line belongs to

  const closeSection = (): void => {
    if (section && section.rows !== section.declared) {
      const name = section.acknowledged ? 'ACKNOWLEDGED' : 'UNACKNOWLEDGED';
      report(ctx, block, 'count-mismatch', `${name} ALARMS says ${section.declared}, rows read: ${section.rows}`, section.line);
    }
    section = null;
  };

  for (let k = 0; k < block.lines.length; k += 1) {
    const text = block.lines[k]!;
    const n = block.ns[k]!;
    if (n === block.headerLine || isRule(text)) continue;
    if (isBlank(text)) {
      lastRow = -1;
      continue;
    }
    const trimmed = text.trim();
    const sm = SECTION_RE.exec(trimmed);
    if (sm) {
      closeSection();
      section = { acknowledged: !sm[1], declared: Number(sm[2]), rows: 0, line: n };
      table = null;
      lastRow = -1;
      continue;
    }
    if (text.includes('Date & Time') && text.includes('Specific Problem')) {
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
    if (trimmed.startsWith('>>> Total:')) {
      closeSection();
      footerSeen = true;
      table = null;
      lastRow = -1;
      checkFooter(trimmed, alarms, block, ctx, n);
      continue;
    }
    if (!table) continue; // chatter before the table: Connecting to…, Trying file=…, Nr of active alarms…

    const time = tableTime(text);
    if (time) {
      const sevAt = skipSpaces(text, 19);
      const code = text.charAt(sevAt);
      const severity = severityOf(code);
      const next = text.charCodeAt(sevAt + 1);
      if (!severity || !(Number.isNaN(next) || next === 32)) {
        report(ctx, block, 'unparsed-line', `alarm row without a severity C/M/m/w: ${excerpt(text)}`, n);
        lastRow = -1;
        continue;
      }
      const parts = splitAlarmText(text, skipSpaces(text, sevAt + 1), table.moCol, table.withOperator);
      if (!parts.mo) report(ctx, block, 'unparsed-line', `alarm row without an MO: ${excerpt(text)}`, n);
      const stamp = text.slice(0, 19);
      const facts = sharedMoFacts(parts.mo);
      alarms.push({
        node: block.node,
        command: block.command,
        source: refOf(ctx, n),
        time: stamp,
        timeBasis: table.basis,
        at: instantOf(time, table.basis, block.header, ctx.defaultOffset),
        severity,
        severityCode: code as Alarm['severityCode'],
        specificProblem: parts.specificProblem,
        mo: parts.mo,
        moClass: facts.moClass,
        tech: facts.tech,
        cell: facts.cell,
        additionalInfo: parts.additionalInfo,
        acknowledged: table.acknowledged,
        operator: parts.operator,
      });
      rowTexts.push(text);
      lastRow = alarms.length - 1;
      if (section) section.rows += 1;
      continue;
    }
    if (lastRow >= 0) {
      // A row that runs on: a terminal wrap (no indent) continues the text as is, an indented line after a space.
      const joined = text.charCodeAt(0) === 32 ? `${rowTexts[lastRow]} ${trimmed}` : `${rowTexts[lastRow]}${text}`;
      rowTexts[lastRow] = joined;
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
