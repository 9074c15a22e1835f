import { type Block } from './blocks';
import { type BlockContext, refOf, report } from './context';
import { isBlank, isDashRule, isRule } from './text';
import { type CvEntry, type CvListing } from './types';

/**
 * `cvls` on CPP nodes (checked against a public MGW log): `Key:  value` lines, then the CV table
 *
 *     Executing:              Au_CXP9018138%6_R112A03_150819_0100  CXP9018138/6_R112A03  NDP6400B (…)
 *     Rollback status:        Rollback is on
 *     Id CV Name                                Creation Date    UpgradePackage       Release  Type  Operator  Comment
 *      1 SU_CXP9018138%6_R112A03_130509_0843    2013-05-09 08:43 CXP9018138/6_R112A03 NDP6400B upgrade_tol CPP  Temp. CV
 *     >>> Total: 15 CV's, 1 UP's
 *
 * Anything else (the UP table, other node types' backup listings) stays in the block's raw lines.
 * Null when nothing was recognised, so the caller keeps the block raw.
 */
const KEY_RE = /^([A-Za-z][A-Za-z .]{0,30}):\s+(\S.*)$/;
const ENTRY_RE = /^\s*(\d+)\s+(\S+)\s+(\d{4}-\d\d-\d\d \d\d:\d\d)\b\s*(.*)$/;
const TOTAL_RE = /^>>> Total:\s*(\d+)\s+CV/;

export function parseCvBlock(block: Block, ctx: BlockContext): CvListing | null {
  const summary: Record<string, string> = {};
  const entries: CvEntry[] = [];
  for (let k = 0; k < block.lines.length; k += 1) {
    const text = block.lines[k]!;
    const n = block.ns[k]!;
    if (n === block.headerLine || isBlank(text) || isRule(text) || isDashRule(text)) continue;
    const trimmed = text.trim();
    const total = TOTAL_RE.exec(trimmed);
    if (total) {
      if (Number(total[1]) !== entries.length) report(ctx, block, 'count-mismatch', `footer says ${total[1]} CVs, rows read: ${entries.length}`, n);
      continue;
    }
    const entry = ENTRY_RE.exec(text);
    if (entry) {
      entries.push({ id: Number(entry[1]), name: entry[2]!, created: entry[3]!, details: entry[4]!.trim(), source: refOf(ctx, n) });
      continue;
    }
    const kv = KEY_RE.exec(trimmed);
    if (kv && !(kv[1]! in summary)) summary[kv[1]!.trim()] = kv[2]!.trim();
  }
  if (entries.length === 0 && Object.keys(summary).length === 0) return null;
  return { node: block.node, command: block.command, summary, entries, source: refOf(ctx, block.promptLine) };
}
