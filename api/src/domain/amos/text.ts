/**
 * Line handling shared by every parser of this folder: physical lines without splitting the whole
 * text, CRLF, terminal colour codes, the `<ip>: ` prefix of multi-node output, and binary junk.
 * Everything here is a plain loop or an anchored regular expression without nested quantifiers, so
 * a long line costs its length once.
 */

/** Calls `fn(text, lineNumber)` for every physical line (1-based; a final line without a newline counts). */
export function forEachLine(text: string, fn: (line: string, lineNumber: number) => void): void {
  let start = 0;
  let n = 0;
  const len = text.length;
  while (start < len) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = len;
    n += 1;
    let stop = end;
    if (stop > start && text.charCodeAt(stop - 1) === 13) stop -= 1;
    fn(text.slice(start, stop), n);
    start = end + 1;
  }
}

// CSI sequences (colours, cursor moves) and two-character escapes.
// eslint-disable-next-line no-control-regex -- matching the escape character is the point
const ANSI_RE = /\x1b(?:\[[0-9;?]*[ -/]*[@-~]|[@-_])/g;
const IP_PREFIX_RE = /^(?:\d{1,3}\.){3}\d{1,3}: ?/;

/** A line is binary junk when it holds a NUL, or when at least one character in 20 is a control or undecodable one. */
export function isBinary(line: string): boolean {
  let bad = 0;
  const len = line.length;
  for (let i = 0; i < len; i += 1) {
    const c = line.charCodeAt(i);
    if (c === 0) return true;
    if ((c < 32 && c !== 9) || c === 0x7f || c === 0xfffd) bad += 1;
  }
  return bad > 0 && bad * 20 >= len;
}

/**
 * The text of a line as the parsers see it: without a UTF-8 BOM, terminal escape sequences and the
 * `<ip>: ` prefix that moshell puts before every line of multi-node output. Null for binary junk.
 */
export function cleanLine(raw: string): string | null {
  let line = raw;
  if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
  if (line.includes('\x1b')) line = line.replace(ANSI_RE, '');
  if (isBinary(line)) return null;
  return withoutIpPrefix(line);
}

/** The line without moshell's `<ip>: ` prefix. */
export function withoutIpPrefix(line: string): string {
  const c0 = line.charCodeAt(0);
  if (c0 >= 48 && c0 <= 57) {
    const m = IP_PREFIX_RE.exec(line);
    if (m) return line.slice(m[0].length);
  }
  return line;
}

// Whatever cleanLine could change or refuse, besides the `<ip>: ` prefix: control characters (escape and
// NUL first, tab and line ends not), DEL, U+FFFD and a BOM; a CR that does not end a line is checked apart.
const NOT_PLAIN_CHARS: readonly string[] = [0x1b, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0x0b, 0x0c, 0x7f, 0xfffd, 0xfeff]
  .concat(Array.from({ length: 0x1f - 0x0e + 1 }, (_, k) => 0x0e + k).filter((c) => c !== 0x1b))
  .map((c) => String.fromCharCode(c));

/**
 * True when no line of `text` needs more of {@link cleanLine} than {@link withoutIpPrefix}, so a plain
 * log (nearly every one) is not checked character by character line by line. One native search per
 * character (memchr on one-byte strings) is several times faster than one regular expression with a
 * character class over the whole text.
 */
export function isPlainText(text: string): boolean {
  for (const c of NOT_PLAIN_CHARS) if (text.includes(c)) return false;
  for (let i = text.indexOf('\r'); i >= 0; i = text.indexOf('\r', i + 1)) if (text.charCodeAt(i + 1) !== 10) return false;
  return true;
}

/** `=====…` (at least 10), optionally indented: the rules around moshell tables. */
export function isRule(line: string): boolean {
  let i = 0;
  const len = line.length;
  while (i < len && line.charCodeAt(i) === 32) i += 1;
  const start = i;
  while (i < len && line.charCodeAt(i) === 61) i += 1;
  if (i - start < 10) return false;
  while (i < len && line.charCodeAt(i) === 32) i += 1;
  return i === len;
}

/** `-----…` rules (cvls uses them between its sections). */
export function isDashRule(line: string): boolean {
  const t = line.trim();
  if (t.length < 10) return false;
  for (let i = 0; i < t.length; i += 1) if (t.charCodeAt(i) !== 45) return false;
  return true;
}

export function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i += 1) {
    const c = line.charCodeAt(i);
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

/** Index of the first non-space character at or after `from` (line length when none). */
export function skipSpaces(line: string, from: number): number {
  let i = from;
  while (i < line.length && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i += 1;
  return i;
}

/** Index of the first space at or after `from` (line length when none). */
export function skipToken(line: string, from: number): number {
  // Two native searches beat a loop over the characters of a long token (an MO is often 100 of them).
  const space = line.indexOf(' ', from);
  const tab = line.indexOf('\t', from);
  const end = space < 0 ? line.length : space;
  return tab >= 0 && tab < end ? tab : Math.max(end, from);
}

/** {@link skipToken} when the line is known to hold no tab (one native search instead of two). */
export function skipWord(line: string, from: number, tabs: boolean): number {
  if (tabs) return skipToken(line, from);
  const space = line.indexOf(' ', from);
  return space < 0 ? Math.max(line.length, from) : space;
}

/** What `String.prototype.trim` removes: WhiteSpace and LineTerminator of ECMAScript. */
export function isTrimmed(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/** `line.slice(from).trim()` with one cut. */
export function trimmedSlice(line: string, from: number): string {
  const first = line.charCodeAt(from);
  const last = line.charCodeAt(line.length - 1);
  if (first > 32 && first < 0xa0 && last > 32 && last < 0xa0) return line.slice(from);
  let start = from;
  let end = line.length;
  while (start < end && isTrimmed(line.charCodeAt(start))) start += 1;
  while (end > start && isTrimmed(line.charCodeAt(end - 1))) end -= 1;
  return line.slice(start, end);
}

/** Whitespace-separated tokens, without regular expressions. */
export function tokens(line: string): string[] {
  const out: string[] = [];
  let i = skipSpaces(line, 0);
  while (i < line.length) {
    const end = skipToken(line, i);
    out.push(line.slice(i, end));
    i = skipSpaces(line, end);
  }
  return out;
}

/** Non-negative integer of a string of digits only; null otherwise. */
export function toInt(s: string): number | null {
  if (s.length === 0 || s.length > 15) return null;
  for (let i = 0; i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return null;
  }
  return Number(s);
}

/** Signed integer (`-30`, `100`); null otherwise. */
export function toSignedInt(s: string): number | null {
  const t = s.trim();
  if (t.startsWith('-')) {
    const n = toInt(t.slice(1));
    return n === null ? null : -n;
  }
  return toInt(t.startsWith('+') ? t.slice(1) : t);
}

/** Index of the first character at or after `from` that is not a space or tab (`to` at most). */
export function skipSpacesAt(text: string, from: number, to: number): number {
  let i = from;
  while (i < to) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9) break;
    i += 1;
  }
  return i;
}

/** {@link isRule} of `text[from, to)`. */
export function isRuleAt(text: string, from: number, to: number): boolean {
  let i = from;
  while (i < to && text.charCodeAt(i) === 32) i += 1;
  const start = i;
  while (i < to && text.charCodeAt(i) === 61) i += 1;
  if (i - start < 10) return false;
  while (i < to && text.charCodeAt(i) === 32) i += 1;
  return i === to;
}

/** `text.slice(from, to).trim()` with one cut. */
export function trimmedAt(text: string, from: number, to: number): string {
  let start = from;
  let end = to;
  while (start < end && isTrimmed(text.charCodeAt(start))) start += 1;
  while (end > start && isTrimmed(text.charCodeAt(end - 1))) end -= 1;
  return text.slice(start, end);
}

/**
 * The next occurrence of one character in a long text, for positions asked in (mostly) rising order:
 * each answer is kept until passed, so a text without the character is not searched to its end once
 * per line. A position before the last one asked is searched again, at most up to the answer kept.
 */
export class NextChar {
  private from = Infinity;
  private pos = 0;
  constructor(
    private readonly text: string,
    private readonly ch: string,
  ) {}

  /** Index of the first `ch` at or after `from` (the text's length when none). */
  at(from: number): number {
    if (from < this.from || from > this.pos) {
      const p = this.text.indexOf(this.ch, from);
      this.pos = p < 0 ? this.text.length : p;
      this.from = from;
    }
    return this.pos;
  }
}

/**
 * The text of a log file's bytes: UTF-8, or UTF-16 when the file says so (a BOM) or shows it (a NUL
 * after each of its first ASCII characters): Windows tools save pasted terminal output as UTF-16, and
 * read as UTF-8 every line of it would be binary junk, the whole log lost.
 */
export function decodeLogBytes(data: Uint8Array): string {
  const b0 = data[0];
  const b1 = data[1];
  if (b0 === 0xff && b1 === 0xfe) return new TextDecoder('utf-16le').decode(data.subarray(2));
  if (b0 === 0xfe && b1 === 0xff) return new TextDecoder('utf-16be').decode(data.subarray(2));
  const probe = Math.min(data.length - (data.length % 2), 64);
  if (probe >= 4) {
    let le = true;
    let be = true;
    for (let i = 0; i < probe; i += 2) {
      if (data[i] === 0 || data[i + 1] !== 0) le = false;
      if (data[i] !== 0 || data[i + 1] === 0) be = false;
    }
    if (le) return new TextDecoder('utf-16le').decode(data);
    if (be) return new TextDecoder('utf-16be').decode(data);
  }
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8');
}
