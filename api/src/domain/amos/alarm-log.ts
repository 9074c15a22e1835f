import { splitAlarmText, severityOf } from './alarms';
import { type Block } from './blocks';
import { type BlockContext, excerpt, refOf, report, truncated } from './context';
import { tableInstant, tableTime } from './header';
import { moFacts } from './mo';
import { isBlank, isRule, skipSpaces, skipToken } from './text';
import { type AlarmLogEntry, type TimeBasis } from './types';

/**
 * `lga` (and `lgaevsrm`-style merged logs): the node's alarm log. Checked against public moshell logs:
 *
 *     Timestamp (UTC)     Type Sev    Description
 *     2025-11-11 10:39:09 AL   C      License Key File Fault              Lm=1  (Key file fault …)
 *     2025-11-11 10:41:00 AL   *      License Key File Fault              Lm=1  (…)            ← cease
 *
 *     Timestamp (UTC)     Type  Merged Log Entry                                              (lgaevsrm)
 *     2015-08-01 01:00:36 OTHR  ConfigVersionCreated …                                         ← not an alarm: skipped
 *     2015-08-01 02:49:43 AL    w MTP3b Link Out of Service           Mtp3bSpItu=2-1208,… (…)
 *
 * Logs without a Type column (`<time> <S> <problem> <MO> (…)`) are read too.
 */
export function parseAlarmLogBlock(block: Block, ctx: BlockContext): AlarmLogEntry[] {
  const out: AlarmLogEntry[] = [];
  let basis: TimeBasis | null = null;

  for (let k = 0; k < block.lines.length; k += 1) {
    const text = block.lines[k]!;
    const n = block.ns[k]!;
    if (n === block.headerLine || isRule(text) || isBlank(text)) continue;
    if (text.startsWith('Timestamp')) {
      basis = text.includes('(UTC)') ? 'UTC' : 'Local';
      continue;
    }
    if (basis === null) continue; // Trying password…, Get /c/logfiles/…, Parsing alarmLog…Done.
    if (!tableTime(text)) continue; // the odd multi-line log entry

    let i = skipSpaces(text, 19);
    let end = skipToken(text, i);
    let type: string | null = null;
    let sev = text.slice(i, end);
    if (!(sev.length === 1 && (sev === '*' || severityOf(sev)))) {
      type = sev;
      if (type !== 'AL') continue; // events, availability, config-version entries
      i = skipSpaces(text, end);
      end = skipToken(text, i);
      sev = text.slice(i, end);
    }
    const ceased = sev === '*';
    const severity = ceased ? null : severityOf(sev);
    if (!ceased && !severity) {
      report(ctx, block, 'unparsed-line', `alarm log row without a severity C/M/m/w/*: ${excerpt(text)}`, n);
      continue;
    }
    const parts = splitAlarmText(text, skipSpaces(text, end), null, false);
    const stamp = text.slice(0, 19);
    out.push({
      node: block.node,
      command: block.command,
      source: refOf(ctx, n),
      time: stamp,
      timeBasis: basis,
      at: tableInstant(stamp, basis, block.header, ctx.defaultOffset),
      type,
      ceased,
      severity,
      specificProblem: parts.specificProblem,
      ...moFacts(parts.mo),
      additionalInfo: parts.additionalInfo,
    });
  }
  if (basis === null) truncated(ctx, block, 'no alarm log table');
  return out;
}
