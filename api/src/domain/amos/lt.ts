import { type Block } from './blocks';
import { type BlockContext, refOf } from './context';
import { isBlank } from './text';
import { type MoTreeSummary } from './types';

/**
 * `lt all` loads the MO tree and says how many MOs it got (`… Total: 3313 MOs`, `Loaded 3312 MOs`);
 * the last count printed is kept, with the block's non-blank lines (at most `MAX_LINES`).
 */
const MOS_RE = /(\d+)\s+MOs\b/g;
const MAX_LINES = 50;

export function parseLtBlock(block: Block, ctx: BlockContext): MoTreeSummary {
  let mos: number | null = null;
  const lines: string[] = [];
  for (let k = 0; k < block.lines.length; k += 1) {
    const text = block.lines[k]!;
    const n = block.ns[k]!;
    if (n === block.headerLine || isBlank(text)) continue;
    if (lines.length < MAX_LINES) lines.push(text.trimEnd());
    if (text.includes('MOs')) {
      for (const m of text.matchAll(MOS_RE)) mos = Number(m[1]);
    }
  }
  return { node: block.node, command: block.command, mos, lines, source: refOf(ctx, block.promptLine) };
}
