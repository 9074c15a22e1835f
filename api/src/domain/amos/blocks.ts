import { parseHeaderLine } from './header';
import { cleanLine, isBlank, skipSpaces, withoutIpPrefix } from './text';
import { type BlockHeader, type CommandFamily, type LogSource, type Problem, type SourceRef } from './types';

/** The output of one prompt command. */
export interface Block {
  node: string;
  command: string;
  family: CommandFamily;
  /** Line number of the prompt. */
  promptLine: number;
  header: BlockHeader | null;
  headerLine: number | null;
  /** Lines after the prompt (binary lines left out, cleaned), the header line included. */
  lines: string[];
  /** Physical line number of each of `lines` (two arrays: no object per line). */
  ns: number[];
  /** Last (non-binary) line of the block. */
  lastLine: number;
  /** The block ran to the end of the file (no prompt after it). */
  atEof: boolean;
}

const MAX_NODE_NAME = 100;

/**
 * A prompt line `NODE> command` (`NODE>` alone at the end of a session). Node names are letters,
 * digits, `_`, `.` and `-` (`ERBS_12345_SOMEWHERE_K`, `LX0001`, `10.1.2.3`); an `=` or a space before
 * the `>` means the line is something else.
 */
export function parsePrompt(line: string): { node: string; command: string } | null {
  const gt = line.indexOf('>');
  if (gt <= 0 || gt > MAX_NODE_NAME) return null;
  for (let i = 0; i < gt; i += 1) {
    const c = line.charCodeAt(i);
    const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (!alnum && (i === 0 || (c !== 95 && c !== 46 && c !== 45))) return null;
  }
  if (gt + 1 < line.length && line.charCodeAt(gt + 1) !== 32) return null;
  return { node: line.slice(0, gt), command: line.slice(gt + 1).trim() };
}

/** Which parser reads a command's output, from its first word. */
export function familyOf(command: string): CommandFamily {
  const sp = command.indexOf(' ');
  const verb = (sp < 0 ? command : command.slice(0, sp)).toLowerCase();
  switch (verb) {
    case 'alt':
    case 'altk':
      return 'alt';
    case 'st':
    case 'lst':
      return 'st';
    case 'get':
    case 'lget':
      return 'get';
    case 'hget':
    case 'lhget':
      return 'hget';
    case 'cvls':
      return 'cvls';
    case 'lt':
      return 'lt';
    default:
      // lga, lgar, lgaevsrm…: alarm log listings.
      return verb.startsWith('lg') && verb.includes('a') ? 'lga' : 'other';
  }
}

/** Commands that print nothing worth keeping (session end). */
const SILENT = new Set(['', 'q', 'quit', 'exit', 'bye']);

export function isSilent(command: string): boolean {
  return SILENT.has(command.toLowerCase());
}

export function sourceRef(source: LogSource, line: number): SourceRef {
  return source.archive === undefined ? { file: source.file, line } : { archive: source.archive, file: source.file, line };
}

/** How many lines after the prompt may come before the header line. */
const HEADER_WINDOW = 6;

/**
 * Cuts a node log into blocks at its prompt lines, line by line: each block is handed to `onBlock`
 * as soon as the next prompt (or the end) closes it, so only one block is held at a time. Binary
 * lines are skipped and reported (one problem per run), and the lines that say the node could not be
 * reached are noted.
 */
export class BlockSplitter {
  node: string | null = null;
  unreachableReason: string | null = null;
  private current: Block | null = null;
  private nonBlankSincePrompt = 0;
  private junkStart = 0;
  private junkCount = 0;
  private readonly foreign = new Set<string>();

  constructor(
    private readonly source: LogSource,
    private readonly onBlock: (block: Block) => void,
    private readonly problems: Problem[],
    private readonly defaultOffset: number | null,
  ) {}

  /** Set by the caller when the whole text is plain ({@link isPlainText}): lines then only lose their `<ip>: ` prefix. */
  plain = false;

  /** Cleared by the caller when no line can say the node was not reached ({@link mayBeUnreachable}). */
  checkUnreachable = true;

  push(raw: string, n: number): void {
    const text = this.plain ? withoutIpPrefix(raw) : cleanLine(raw);
    if (text === null) {
      if (this.junkCount === 0) this.junkStart = n;
      this.junkCount += 1;
      return;
    }
    if (this.junkCount > 0) this.flushJunk();
    if (this.checkUnreachable && this.unreachableReason === null && isUnreachableLine(text)) this.unreachableReason = text.trim();

    const prompt = parsePrompt(text);
    if (prompt) {
      this.close(false);
      this.startBlock(prompt.node, prompt.command, n);
      return;
    }
    const block = this.current;
    if (!block) return; // preamble: banners, `Checking ip contact...OK`, menus
    block.lines.push(text);
    block.ns.push(n);
    block.lastLine = n;
    if (block.header === null && this.nonBlankSincePrompt < HEADER_WINDOW && !isBlank(text)) {
      this.nonBlankSincePrompt += 1;
      const header = parseHeaderLine(text, this.defaultOffset);
      if (header) {
        block.header = header;
        block.headerLine = n;
      }
    }
  }

  end(): void {
    if (this.junkCount > 0) this.flushJunk();
    this.close(true);
  }

  private startBlock(node: string, command: string, n: number): void {
    if (this.node === null) this.node = node;
    else if (node.toLowerCase() !== this.node.toLowerCase() && !this.foreign.has(node)) {
      this.foreign.add(node);
      this.problems.push({
        kind: 'foreign-node',
        reason: `prompt of node ${node} in the log of ${this.node}`,
        command,
        source: sourceRef(this.source, n),
      });
    }
    this.current = {
      node,
      command,
      family: familyOf(command),
      promptLine: n,
      header: null,
      headerLine: null,
      lines: [],
      ns: [],
      lastLine: n,
      atEof: false,
    };
    this.nonBlankSincePrompt = 0;
  }

  private close(atEof: boolean): void {
    const block = this.current;
    if (!block) return;
    this.current = null;
    block.atEof = atEof;
    this.onBlock(block);
  }

  private flushJunk(): void {
    const count = this.junkCount;
    this.junkCount = 0;
    this.problems.push({
      kind: 'binary',
      reason: count === 1 ? 'binary data: 1 line skipped' : `binary data: ${count} lines skipped`,
      command: this.current?.command ?? null,
      source: sourceRef(this.source, this.junkStart),
    });
  }
}

/**
 * False when no line of a plain `text` can be an {@link isUnreachableLine}: a plain line only loses a
 * prefix, so its phrases are in the text as printed. A few native searches instead of one per line;
 * each phrase is first looked for by a short piece starting with a rare character (V8 finds the first
 * character of a short pattern with memchr, while a long phrase costs as much as a pass per character).
 */
export function mayBeUnreachable(text: string, plain: boolean): boolean {
  if (!plain) return true;
  return (text.includes('...N') && text.includes('ip contact...Not OK')) || (text.includes('ble t') && text.includes('Unable to connect to '));
}

/** The lines that say a node was not reached: `Checking ip contact...Not OK`, `Unable to connect to …`. */
export function isUnreachableLine(text: string): boolean {
  return text.includes('ip contact...Not OK') || text.startsWith('Unable to connect to ', skipSpaces(text, 0));
}
