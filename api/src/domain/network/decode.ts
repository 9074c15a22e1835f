import { TextDecoder } from 'node:util';
import { NetworkParseError } from './errors';
import { type Chunk } from './records';

/**
 * Turns byte chunks into text chunks for the streaming parsers, choosing the character encoding the
 * way XML 1.0 appendix F does: byte-order mark first, then the `encoding` of the XML declaration.
 * Only the first few hundred bytes are ever buffered (to read the declaration).
 */

type Family = 'utf-8' | 'utf-16le' | 'utf-16be' | 'ascii-compatible';

/** Declared names we accept, mapped to WHATWG decoder labels (ISO-8859-1 decodes as its superset windows-1252). */
const SUPPORTED: Record<string, string> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  // ASCII is decoded strictly as UTF-8: any byte above 0x7F is then reported instead of silently mapped.
  'us-ascii': 'utf-8',
  ascii: 'utf-8',
  'iso-8859-1': 'windows-1252',
  'iso_8859-1': 'windows-1252',
  latin1: 'windows-1252',
  'latin-1': 'windows-1252',
  'iso-8859-15': 'iso-8859-15',
  latin9: 'iso-8859-15',
  'windows-1252': 'windows-1252',
  cp1252: 'windows-1252',
  'utf-16': 'utf-16',
  'utf-16le': 'utf-16le',
  'utf-16be': 'utf-16be',
};

const SUPPORTED_LIST = 'UTF-8, UTF-16, US-ASCII, ISO-8859-1, ISO-8859-15, windows-1252';
/** Enough for any real XML declaration; past this we stop waiting for `?>`. */
const SNIFF_LIMIT = 1024;

export interface Position {
  line: number;
  column: number;
}

export interface ChunkDecoderOptions {
  /** XML mode honours the declaration; text mode (cmedit) is UTF-8/UTF-16 by byte-order mark only. */
  xml: boolean;
  /** Where the consumer currently is, for errors about invalid bytes further into the file. */
  position: () => Position;
}

export class ChunkDecoder {
  private head: Uint8Array[] = [];
  private headLength = 0;
  private decoder: TextDecoder | null = null;
  private sawString = false;
  private started = false;

  constructor(private readonly options: ChunkDecoderOptions) {}

  /** Returns the text available so far ('' while the head is still being sniffed). */
  push(chunk: Chunk): string {
    if (typeof chunk === 'string') return this.pushString(chunk);
    if (this.sawString) throw new TypeError('network parser: cannot mix string and byte chunks');
    if (this.decoder) return this.decode(chunk, true);
    this.head.push(chunk);
    this.headLength += chunk.length;
    const bytes = this.concatHead();
    const decided = this.decide(bytes, false);
    if (!decided) return '';
    this.head = [];
    return this.decode(bytes, true);
  }

  /** Flushes the head (short files) and the decoder's pending partial character. */
  end(): string {
    if (this.sawString) return '';
    if (!this.decoder) {
      const bytes = this.concatHead();
      this.head = [];
      if (bytes.length === 0) return '';
      this.decide(bytes, true);
      return this.decode(bytes, false);
    }
    return this.decode(new Uint8Array(0), false);
  }

  private pushString(text: string): string {
    if (this.decoder || this.headLength > 0) throw new TypeError('network parser: cannot mix string and byte chunks');
    this.sawString = true;
    if (!this.started) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      // A text chunk is already decoded, but an unknown declared encoding still means a file we would misread.
      if (this.options.xml) this.checkDeclaredName(text);
    }
    return text;
  }

  private concatHead(): Uint8Array {
    if (this.head.length === 1) return this.head[0] as Uint8Array;
    const out = new Uint8Array(this.headLength);
    let at = 0;
    for (const part of this.head) {
      out.set(part, at);
      at += part.length;
    }
    this.head = [out];
    return out;
  }

  /** Picks the decoder once enough of the head is known; returns false to keep buffering. */
  private decide(bytes: Uint8Array, final: boolean): boolean {
    if (bytes.length < 4 && !final) return false;
    const family = sniffFamily(bytes);
    if (!this.options.xml) {
      this.decoder = new TextDecoder(family === 'ascii-compatible' ? 'utf-8' : family, { fatal: true });
      return true;
    }
    if (family === 'utf-16le' || family === 'utf-16be') {
      const probe = new TextDecoder(family).decode(bytes.subarray(0, bytes.length - (bytes.length % 2)));
      if (!final && probe.indexOf('?>') < 0 && bytes.length < SNIFF_LIMIT * 2 && probe.trimStart().startsWith('<?xml')) return false;
      const declared = this.checkDeclaredName(stripBom(probe));
      if (declared !== null && !declared.startsWith('utf-16')) {
        throw new NetworkParseError(1, 1, `the file is UTF-16 encoded but its XML declaration says encoding="${declared}"`);
      }
      this.decoder = new TextDecoder(family, { fatal: true });
      return true;
    }
    // ASCII-compatible: the declaration, if any, is readable as Latin-1 until we know better.
    const probe = latin1(bytes.subarray(0, Math.min(bytes.length, SNIFF_LIMIT)));
    const text = family === 'utf-8' ? probe.slice(3) : probe;
    if (!final && text.startsWith('<?xml') && text.indexOf('?>') < 0 && bytes.length < SNIFF_LIMIT) return false;
    if (!final && text.length < 5 && '<?xml'.startsWith(text)) return false;
    const declared = this.checkDeclaredName(text);
    let label = 'utf-8';
    if (declared !== null) {
      const mapped = SUPPORTED[declared] as string;
      if (mapped.startsWith('utf-16')) {
        throw new NetworkParseError(1, 1, `the XML declaration says encoding="${declared}" but the file is not UTF-16 encoded`);
      }
      if (family === 'utf-8' && mapped !== 'utf-8') {
        throw new NetworkParseError(1, 1, `the file starts with a UTF-8 byte-order mark but its XML declaration says encoding="${declared}"`);
      }
      label = mapped;
    }
    this.decoder = new TextDecoder(label, { fatal: true });
    return true;
  }

  /** Returns the lower-cased declared encoding (null when none) or throws for one we do not support. */
  private checkDeclaredName(text: string): string | null {
    if (!text.startsWith('<?xml')) return null;
    const end = text.indexOf('?>');
    const decl = end >= 0 ? text.slice(0, end) : text;
    const m = /\sencoding\s*=\s*(["'])([^"']*)\1/.exec(decl);
    if (!m) return null;
    const name = (m[2] as string).trim().toLowerCase();
    if (SUPPORTED[name] === undefined) {
      const column = m.index + m[0].indexOf(m[1] as string) + 2;
      throw new NetworkParseError(1, column, `unsupported encoding "${m[2] as string}" in the XML declaration (supported: ${SUPPORTED_LIST})`);
    }
    return name;
  }

  private decode(bytes: Uint8Array, stream: boolean): string {
    const decoder = this.decoder as TextDecoder;
    try {
      return decoder.decode(bytes, { stream });
    } catch {
      const at = this.options.position();
      throw new NetworkParseError(
        at.line,
        at.column,
        `invalid ${decoder.encoding.toUpperCase()} byte sequence after this position (is the declared encoding right?)`,
      );
    }
  }
}

function sniffFamily(b: Uint8Array): Family {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return 'utf-8';
  if (b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
  if (b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
  if (b[0] === 0x3c && b[1] === 0x00 && b[2] === 0x3f && b[3] === 0x00) return 'utf-16le';
  if (b[0] === 0x00 && b[1] === 0x3c && b[2] === 0x00 && b[3] === 0x3f) return 'utf-16be';
  return 'ascii-compatible';
}

function latin1(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i] as number);
  return s;
}

function stripBom(s: string): string {
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
}
