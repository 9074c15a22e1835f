import { parseHeaderLine } from './header';
import { cleanLine, isBlank, skipSpaces, withoutIpPrefix } from './text';
import { type BlockHeader, type CommandFamily, type LogSource, type Problem, type SourceRef } from './types';

/**
 * The output of one prompt command. Its lines are ranges of `text`: of the whole log when the log is
 * plain (no line is cut into a string unless a parser asks for {@link Block.lines}), else of the block's
 * cleaned lines joined with `\n`.
 */
export class Block {
  header: BlockHeader | null = null;
  headerLine: number | null = null;
  /** What the line ranges index. */
  text = '';
  /** Start and end (exclusive) in `text` of each line after the prompt (binary lines left out, cleaned), the header line included. */
  starts: number[] = [];
  ends: number[] = [];
  /** Physical line number of each line. */
  ns: number[] = [];
  /** Last (non-binary) line of the block. */
  lastLine: number;
  /** The block ran to the end of the file (no prompt after it). */
  atEof = false;
  private cut: string[] | null = null;

  constructor(
    readonly node: string,
    readonly command: string,
    readonly family: CommandFamily,
    /** Line number of the prompt. */
    readonly promptLine: number,
  ) {
    this.lastLine = promptLine;
  }

  /** The lines as strings (cut on first use). */
  get lines(): string[] {
    if (this.cut === null) {
      const cut: string[] = new Array<string>(this.starts.length);
      for (let k = 0; k < cut.length; k += 1) cut[k] = this.text.slice(this.starts[k], this.ends[k]);
      this.cut = cut;
    }
    return this.cut;
  }

  /** Lines given as strings (the line-by-line splitter): kept, and joined once as the block's text. */
  setLines(lines: string[]): void {
    this.cut = lines;
    this.text = lines.join('\n');
    let at = 0;
    for (let k = 0; k < lines.length; k += 1) {
      this.starts.push(at);
      at += lines[k]!.length;
      this.ends.push(at);
      at += 1;
    }
  }
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

/**
 * Prompts of the shells a command opens on the node, printed inside its output: the COLI prompt
 * (`coli>` of `ue print`, `lhsh`, `mon`), board shells (`lhsh>`, `osmon>`) and the like. They are part
 * of the command's output, never a node's prompt.
 */
const SUB_SHELL_PROMPTS: ReadonlySet<string> = new Set([
  'coli',
  'lhsh',
  'lh',
  'sh',
  'bash',
  'ksh',
  'osmon',
  'mon',
  'ose',
  'ftp',
  'sftp',
  'gdb',
  'ssh',
  'telnet',
]);

/** {@link parsePrompt} of a node's prompt: null for a sub-shell's prompt inside a command's output. */
export function parseNodePrompt(line: string): { node: string; command: string } | null {
  const prompt = parsePrompt(line);
  if (prompt === null || (prompt.node.length <= 6 && SUB_SHELL_PROMPTS.has(prompt.node.toLowerCase()))) return null;
  return prompt;
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
  // Silent commands are short: a long command (a get with its patterns) is not lowered to be looked up.
  return command.length <= 4 && SILENT.has(command.toLowerCase());
}

export function sourceRef(source: LogSource, line: number): SourceRef {
  return source.archive === undefined ? { file: source.file, line } : { archive: source.archive, file: source.file, line };
}

/** How many lines after the prompt may come before the header line. */
const HEADER_WINDOW = 6;

// The `<ip>: ` prefix of withoutIpPrefix, read in place in a whole text (sticky); it cannot run past a line end.
const IP_PREFIX_AT = /(?:\d{1,3}\.){3}\d{1,3}: ?/y;

/** `text[from, to)` holds only spaces and tabs. */
export function isBlankAt(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i += 1) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

/**
 * Cuts a node log into blocks at its prompt lines, line by line: each block is handed to `onBlock`
 * as soon as the next prompt (or the end) closes it, so only one block is held at a time. Binary
 * lines are skipped and reported (one problem per run), and the lines that say the node could not be
 * reached are noted. Lines come either one by one as strings ({@link push}) or, for a plain text, as
 * ranges of the whole text ({@link scanPlain}).
 */
export class BlockSplitter {
  node: string | null = null;
  unreachableReason: string | null = null;
  private current: Block | null = null;
  /** Lines of the current block given by push (joined when it closes). */
  private pending: string[] = [];
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

    const prompt = parseNodePrompt(text);
    if (prompt) {
      this.close(false);
      this.startBlock(prompt.node, prompt.command, n);
      return;
    }
    const block = this.current;
    if (!block) return; // preamble: banners, `Checking ip contact...OK`, menus
    this.pending.push(text);
    block.ns.push(n);
    block.lastLine = n;
    if (block.header === null && this.nonBlankSincePrompt < HEADER_WINDOW && !isBlank(text)) this.headerCandidate(block, text, n);
  }

  /**
   * Every line of a plain text (see {@link plain}), as {@link push} would take them from forEachLine,
   * without cutting a string per line: blocks index the whole text. Then {@link end}.
   */
  scanPlain(text: string): void {
    const len = text.length;
    let nextGt = -1; // the first `>` at or after the current line (len when none): each found once
    let pos = 0;
    let n = 0;
    while (pos < len) {
      let nl = text.indexOf('\n', pos);
      if (nl < 0) nl = len;
      n += 1;
      let end = nl;
      if (end > pos && text.charCodeAt(end - 1) === 13) end -= 1;
      let start = pos;
      pos = nl + 1;
      const c0 = text.charCodeAt(start);
      // A prefix has a `.` after one to three digits: a row starting with a date or a header does not.
      if (c0 >= 48 && c0 <= 57 && (text.charCodeAt(start + 1) === 46 || text.charCodeAt(start + 2) === 46 || text.charCodeAt(start + 3) === 46)) {
        IP_PREFIX_AT.lastIndex = start;
        const m = IP_PREFIX_AT.exec(text);
        if (m) start += m[0].length;
      }
      if (this.checkUnreachable && this.unreachableReason === null) {
        const line = text.slice(start, end);
        if (isUnreachableLine(line)) this.unreachableReason = line.trim();
      }
      if (nextGt < start) {
        nextGt = text.indexOf('>', start);
        if (nextGt < 0) nextGt = len;
      }
      if (nextGt < end) {
        const prompt = parseNodePrompt(text.slice(start, end));
        if (prompt) {
          this.close(false);
          this.startBlock(prompt.node, prompt.command, n);
          this.current!.text = text;
          continue;
        }
      }
      const block = this.current;
      if (!block) continue;
      block.starts.push(start);
      block.ends.push(end);
      block.lastLine = n;
      if (block.header === null && this.nonBlankSincePrompt < HEADER_WINDOW && !isBlankAt(text, start, end)) {
        this.headerCandidate(block, text.slice(start, end), n);
      }
    }
    this.end();
  }

  /**
   * Opens a block without a prompt line, for a log that is one command's output saved alone: `line`
   * (its first line) stands for the prompt, and every line, that one included, is then {@link push}ed.
   */
  openBlock(node: string, command: string, family: CommandFamily, line: number): void {
    this.close(false);
    this.startBlock(node, command, line);
    this.current = new Block(node, command, family, line);
    this.current.lastLine = line - 1;
  }

  end(): void {
    if (this.junkCount > 0) this.flushJunk();
    this.close(true);
  }

  private headerCandidate(block: Block, text: string, n: number): void {
    this.nonBlankSincePrompt += 1;
    const header = parseHeaderLine(text, this.defaultOffset);
    if (header) {
      block.header = header;
      block.headerLine = n;
    }
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
    this.current = new Block(node, command, familyOf(command), n);
    this.nonBlankSincePrompt = 0;
  }

  private close(atEof: boolean): void {
    const block = this.current;
    if (!block) return;
    this.current = null;
    if (block.text === '') {
      block.setLines(this.pending);
      this.pending = [];
    } else {
      // A plain block (scanPlain) holds every line after its prompt: its line numbers follow it, and are
      // written once here into an array of their number rather than pushed one by one.
      const count = block.starts.length;
      const ns: number[] = new Array<number>(count);
      for (let k = 0; k < count; k += 1) ns[k] = block.promptLine + 1 + k;
      block.ns = ns;
    }
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
