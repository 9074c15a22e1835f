import { type Block, sourceRef } from './blocks';
import { type LogSource, type MoAttribute, type MoTech, type Problem, type ProblemKind, type SourceRef } from './types';

/** What a family parser needs besides its block. */
export interface BlockContext {
  source: LogSource;
  /** Offset for Local times when the block header has no zone (null: read as UTC). */
  defaultOffset: number | null;
  problems: Problem[];
  /** False when the log holds no tab: a token then ends at the next space, found by one native search. */
  tabs: boolean;
  /** When set, the get/hget values of RetSubUnit MOs are added here too (so RET rows need not walk every value). */
  rets: MoAttribute[] | null;
  /** {@link ParseOptions.keepAttributes}: null keeps every value. */
  keep: ReadonlySet<string> | null;
  /** Node of the log (its first prompt): skipped values of other nodes' blocks tell nothing of it. */
  ownNode: string | null;
  /** Technologies of the skipped values of ownNode (site level left out). */
  skippedTechs: Set<MoTech>;
}

export function newContext(source: LogSource, defaultOffset: number | null = null): BlockContext {
  return { source, defaultOffset, problems: [], tabs: true, rets: null, keep: null, ownNode: null, skippedTechs: new Set() };
}

export function refOf(ctx: BlockContext, line: number): SourceRef {
  return sourceRef(ctx.source, line);
}

export function report(ctx: BlockContext, block: Block, kind: ProblemKind, reason: string, line: number): void {
  ctx.problems.push({ kind, reason, command: block.command, source: refOf(ctx, line) });
}

/** A block that ends before its table closed: where it stopped, and why (end of file or next prompt). */
export function truncated(ctx: BlockContext, block: Block, what: string): void {
  const where = block.atEof ? `the log ends after line ${block.lastLine}` : `the next prompt follows line ${block.lastLine}`;
  report(ctx, block, 'truncated', `${what}: ${where}`, block.promptLine);
}

/** Shortens a line for a problem text. */
export function excerpt(text: string, max = 80): string {
  const t = text.trim();
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}
