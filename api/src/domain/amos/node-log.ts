import { parseAlarmLogBlock } from './alarm-log';
import { parseAlarmBlock } from './alarms';
import { parseGetBlock, parseHgetBlock } from './attributes';
import { type Block, BlockSplitter, isSilent, mayBeUnreachable } from './blocks';
import { type BlockContext, newContext, refOf, report } from './context';
import { parseCvBlock } from './cv';
import { parseLtBlock } from './lt';
import { retRows } from './ret';
import { parseStateBlock } from './states';
import { forEachLine, isPlainText } from './text';
import { type LogSource, type MoAttribute, type NodeLogResult, type ParseOptions, type RawBlock } from './types';

const DEFAULT_RAW_LINE_LIMIT = 10_000;

/** `path/to/LX0001.log` → `LX0001`. */
export function nodeFromFileName(file: string): string {
  const base = file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
  return base.toLowerCase().endsWith('.log') ? base.slice(0, -4) : base;
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

  const onBlock = (block: Block): void => {
    if (ctx.ownNode === null) ctx.ownNode = block.node; // the first prompt's: the log's node
    if (isSilent(block.command)) return; // `q`, `exit`, the bare prompt at the end: nothing to read
    result.blocks.push({
      command: block.command,
      family: block.family,
      node: block.node,
      header: block.header,
      lineCount: block.lastLine - block.promptLine + 1,
      source: refOf(ctx, block.promptLine),
    });
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
  };

  const splitter = new BlockSplitter(source, onBlock, ctx.problems, defaultOffset);
  splitter.plain = isPlainText(text);
  ctx.tabs = text.includes('\t');
  splitter.checkUnreachable = mayBeUnreachable(text, splitter.plain);
  if (splitter.plain) splitter.scanPlain(text);
  else {
    forEachLine(text, (line, n) => splitter.push(line, n));
    splitter.end();
  }

  result.node = splitter.node ?? nodeFromFileName(source.file);
  result.unreachable = splitter.unreachableReason !== null;
  result.unreachableReason = splitter.unreachableReason;
  result.ret = retRows(rets);
  result.skippedAttributeTechs = [...ctx.skippedTechs];
  ctx.problems.sort((a, b) => a.source.line - b.source.line);
  return result;
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
