import { parseAlarmLogBlock } from './alarm-log';
import { parseAlarmBlock } from './alarms';
import { parseGetBlock, parseHgetBlock } from './attributes';
import { type Block, BlockSplitter, isSilent, mayBeUnreachable } from './blocks';
import { type BlockContext, excerpt, newContext, refOf, report } from './context';
import { parseCvBlock } from './cv';
import { parseLtBlock } from './lt';
import { retRows } from './ret';
import { parseStateBlock } from './states';
import { promptlessCommand, promptlessNode, unquoteCsv } from './promptless';
import { cleanLine, forEachLine, isPlainText } from './text';
import { type BlockSummary, type LogSource, type MoAttribute, type NodeLogResult, type ParseOptions, type Problem, type RawBlock } from './types';

const DEFAULT_RAW_LINE_LIMIT = 10_000;

/** `path/to/LX0001.log` → `LX0001`; a pasted output saved as `LX0001.txt` names its node the same way. */
export function nodeFromFileName(file: string): string {
  const base = file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
  return /\.(?:log|txt)$/i.test(base) ? base.slice(0, -4) : base;
}

function append<T>(into: T[], items: readonly T[]): void {
  for (const item of items) into.push(item);
}

/**
 * Parses one node's MoBatch/AMOS log (`<node>.log`): cuts it into command blocks at the prompt lines
 * and reads each block with the parser of its command family. Pure and synchronous; never throws on
 * bad input — binary junk, truncated blocks and counts that disagree are returned as `problems` with
 * their line, and everything else read still counts.
 */
export function parseNodeLog(text: string, source: LogSource, options: ParseOptions = {}): NodeLogResult {
  const defaultOffset = options.defaultUtcOffsetMinutes ?? null;
  const rawLimit = options.rawLineLimit ?? DEFAULT_RAW_LINE_LIMIT;
  const ctx = newContext(source, defaultOffset);
  ctx.keep = options.keepAttributes ?? null;
  const rets: MoAttribute[] = [];
  ctx.rets = rets;
  const result: NodeLogResult = {
    node: '',
    source,
    header: null,
    unreachable: false,
    unreachableReason: null,
    blocks: [],
    alarms: [],
    alarmLog: [],
    states: [],
    attributes: [],
    ret: [],
    cvs: [],
    moTrees: [],
    raw: [],
    problems: ctx.problems,
    skippedAttributeTechs: [],
  };

  // Problems up to here belong to blocks already read (or to the preamble).
  let problemsSeen = 0;
  const onBlock = (block: Block): void => {
    if (ctx.ownNode === null) ctx.ownNode = block.node; // the first prompt's: the log's node
    if (isSilent(block.command)) {
      problemsSeen = ctx.problems.length;
      return; // `q`, `exit`, the bare prompt at the end: nothing to read
    }
    const summary: BlockSummary = {
      command: block.command,
      family: block.family,
      node: block.node,
      header: block.header,
      lineCount: block.lastLine - block.promptLine + 1,
      source: refOf(ctx, block.promptLine),
      incomplete: null,
    };
    result.blocks.push(summary);
    if (block.header && !result.header) result.header = block.header;
    const attributesBefore = result.attributes.length;
    const retsBefore = rets.length;
    try {
      readBlock(block, ctx, result, rawLimit);
    } catch (e) {
      result.attributes.length = attributesBefore; // get/hget add to it as they read
      rets.length = retsBefore;
      report(ctx, block, 'internal', `block not parsed: ${e instanceof Error ? e.message : String(e)}`, block.promptLine);
      result.raw.push(rawBlock(block, ctx, rawLimit));
    }
    summary.incomplete = firstIncompleteness(ctx.problems, problemsSeen, block.promptLine);
    problemsSeen = ctx.problems.length;
  };

  let splitter = new BlockSplitter(source, onBlock, ctx.problems, defaultOffset);
  splitter.plain = isPlainText(text);
  ctx.tabs = text.includes('\t');
  splitter.checkUnreachable = mayBeUnreachable(text, splitter.plain);
  if (splitter.plain) splitter.scanPlain(text);
  else {
    forEachLine(text, (line, n) => splitter.push(line, n));
    splitter.end();
  }
  if (splitter.node === null && splitter.unreachableReason === null) splitter = readPromptless(text, source, onBlock, ctx, defaultOffset) ?? splitter;

  result.node = splitter.node ?? nodeFromFileName(source.file);
  result.unreachable = splitter.unreachableReason !== null;
  result.unreachableReason = splitter.unreachableReason;
  result.ret = retRows(rets);
  result.skippedAttributeTechs = [...ctx.skippedTechs];
  ctx.problems.sort((a, b) => a.source.line - b.source.line);
  return result;
}

/**
 * A log without any prompt ({@link promptlessCommand}): read again as one block of the command its
 * table shows, of the node it names (else the file's). Null when no table says what it is. Rows whose
 * CSV quotes do not close are problems (and are read as written).
 */
function readPromptless(
  text: string,
  source: LogSource,
  onBlock: (block: Block) => void,
  ctx: BlockContext,
  defaultOffset: number | null,
): BlockSplitter | null {
  const raw: string[] = [];
  const cleaned: Array<string | null> = [];
  forEachLine(text, (line) => {
    raw.push(line);
    cleaned.push(cleanLine(line));
  });
  const { lines, unreadable } = unquoteCsv(cleaned);
  const found = promptlessCommand(lines);
  if (!found) return null;
  // The first pass found no block: its only problems are binary lines, which this one reports again.
  ctx.problems.length = 0;
  ctx.tabs = lines.some((l) => l !== null && l.includes('\t'));
  const node = promptlessNode(lines) ?? nodeFromFileName(source.file);
  const splitter = new BlockSplitter(source, onBlock, ctx.problems, defaultOffset);
  splitter.checkUnreachable = false;
  splitter.openBlock(node, found.command, found.family, 1);
  for (const n of unreadable) {
    ctx.problems.push({ kind: 'unparsed-line', reason: `CSV quote not closed: ${excerpt(raw[n - 1]!)}`, command: found.command, source: refOf(ctx, n) });
  }
  // An unreadable row is reported above and read as a blank line: its text cut at a comma is no row.
  const unread = new Set(unreadable);
  lines.forEach((line, k) => splitter.push(unread.has(k + 1) ? '' : (line ?? raw[k]!), k + 1));
  splitter.end();
  return splitter;
}

/** Problems that mean a table was not read whole: what it printed may be short of what the node holds. */
const INCOMPLETE_KINDS: ReadonlySet<Problem['kind']> = new Set(['truncated', 'count-mismatch', 'binary', 'unparsed-line', 'internal']);

/**
 * Why a block's output cannot be taken as the whole answer (the first such problem, with its line), or
 * null: the problems found since `from` while it was current (binary lines inside it, what its parser
 * said), not those of the preamble before its prompt.
 */
function firstIncompleteness(problems: readonly Problem[], from: number, promptLine: number): string | null {
  for (let i = from; i < problems.length; i += 1) {
    const p = problems[i]!;
    if (p.source.line >= promptLine && INCOMPLETE_KINDS.has(p.kind)) return `line ${p.source.line}: ${p.reason}`;
  }
  return null;
}

function readBlock(block: Block, ctx: BlockContext, result: NodeLogResult, rawLimit: number): void {
  switch (block.family) {
    case 'alt':
      append(result.alarms, parseAlarmBlock(block, ctx));
      return;
    case 'lga':
      append(result.alarmLog, parseAlarmLogBlock(block, ctx));
      return;
    case 'st':
      append(result.states, parseStateBlock(block, ctx));
      return;
    case 'get':
      parseGetBlock(block, ctx, result.attributes);
      return;
    case 'hget':
      parseHgetBlock(block, ctx, result.attributes);
      return;
    case 'cvls': {
      const cv = parseCvBlock(block, ctx);
      if (cv) result.cvs.push(cv);
      else result.raw.push(rawBlock(block, ctx, rawLimit));
      return;
    }
    case 'lt':
      result.moTrees.push(parseLtBlock(block, ctx));
      return;
    default:
      result.raw.push(rawBlock(block, ctx, rawLimit));
  }
}

function rawBlock(block: Block, ctx: BlockContext, limit: number): RawBlock {
  const kept = block.lines.length > limit ? block.lines.slice(0, limit) : block.lines;
  return {
    node: block.node,
    command: block.command,
    lines: kept,
    omittedLines: block.lines.length - kept.length,
    source: refOf(ctx, block.promptLine),
  };
}
