/* Shared by the colocated tests of this folder; not exported from index.ts. */
import { type Block, BlockSplitter } from '../blocks';
import { type BlockContext, newContext } from '../context';
import { forEachLine } from '../text';

export const HEADER = '240430-15:40:35-0500 11.135.248.170 24.0c MSRBS_NODE_MODEL_23.Q4_643.28133.125_0bc9 stopfile=/tmp/2309857';
export const HEADER_NO_ZONE = '150819-06:02:11 10.128.163.8 10.0r ERBS_NODE_MODEL_H_1_160 stopfile=/tmp/16315';

/** The first block of `LX0001> <command>` followed by `lines`, and a fresh context for it. */
export function blockOf(command: string, lines: string[], file = 'LX0001.log'): { block: Block; ctx: BlockContext } {
  const ctx = newContext({ file });
  const blocks: Block[] = [];
  const splitter = new BlockSplitter(ctx.source, (b) => blocks.push(b), ctx.problems, null);
  forEachLine([`LX0001> ${command}`, ...lines].join('\n'), (l, n) => splitter.push(l, n));
  splitter.end();
  const block = blocks[0];
  if (!block) throw new Error('no block');
  return { block, ctx };
}
