import { TextDecoder } from 'node:util';
import { SaxesParser, type SaxesTagPlain } from 'saxes';

/**
 * Streaming reader of 3GPP TS 32.435 `measCollecFile` XML (PM counter files). Elements are matched by
 * local name (namespace prefixes and URLs vary by vendor and version). Both layouts of the standard are
 * read: `measTypes` + `measResults` (space-separated lists, matched by position) and `measType p="n"` +
 * `r p="n"` (matched by p). Only one measValue is held at a time; each is handed to `onValue`.
 */

/** One measured object's counters for one granularity period. */
export interface MeasValue {
  /** The node: from the object's own DN when it names one, else the measData's managedElement, else the file sender. */
  node: string;
  /** measObjLdn as written. */
  object: string;
  /** The last RDN's value of the object (`EUtranCellFDD=LX0001_1` → `LX0001_1`). */
  cell: string;
  /** Counter name → value; null for NIL or anything not a number. */
  counters: Map<string, number | null>;
  suspect: boolean;
  /** granPeriod endTime as written (ISO-8601 with offset), or null. */
  endTime: string | null;
  /** Line of the measValue's start tag. */
  line: number;
}

/** The file is not a measCollecFile this reader understands: the 1-based line and why. */
export class PmParseError extends Error {
  override readonly name = 'PmParseError';
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`Line ${line}: ${reason}`);
  }
}

const ROOT = 'measCollecFile';

function localName(qname: string): string {
  const i = qname.indexOf(':');
  return i < 0 ? qname : qname.slice(i + 1);
}

function rdns(dn: string): Array<[string, string]> {
  return dn
    .split(',')
    .map((part) => {
      const i = part.indexOf('=');
      return i < 0 ? (['', part.trim()] as [string, string]) : ([part.slice(0, i).trim(), part.slice(i + 1).trim()] as [string, string]);
    })
    .filter(([, value]) => value !== '');
}

/**
 * The node a DN names: its MeContext, else its ManagedElement (unless that is the bare "1" Ericsson
 * uses inside a node), else null.
 */
export function nodeOfDn(dn: string | null | undefined): string | null {
  if (!dn) return null;
  const parts = rdns(dn);
  const meContext = parts.find(([k]) => k.toLowerCase() === 'mecontext');
  if (meContext) return meContext[1];
  const managed = parts.find(([k]) => k.toLowerCase() === 'managedelement');
  if (managed && !/^\d+$/.test(managed[1])) return managed[1];
  return null;
}

function cellOf(ldn: string): string {
  const parts = rdns(ldn);
  return parts[parts.length - 1]?.[1] ?? ldn;
}

function numberOf(text: string): number | null {
  const t = text.trim();
  if (t === '' || !/^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

interface MeasInfoState {
  endTime: string | null;
  /** By position (measTypes) or by p (measType). */
  types: Map<string, string>;
  typesText: string | null;
}

interface MeasValueState {
  object: string;
  line: number;
  resultsText: string | null;
  byP: Map<string, string>;
  suspect: boolean;
}

class MeasCollecReader {
  private readonly parser = new SaxesParser<{ xmlns: false; position: true }>({ xmlns: false, position: true });
  private readonly stack: string[] = [];
  private rootSeen = false;
  private rootClosed = false;
  private senderNode: string | null = null;
  private elementNode: string | null = null;
  private info: MeasInfoState | null = null;
  private value: MeasValueState | null = null;
  /** Text of the element being read (measTypes, measType, measResults, r, suspect). */
  private text: string | null = null;
  private attrP: string | null = null;
  private tagLine = 1;
  count = 0;

  constructor(private readonly onValue: (value: MeasValue) => void) {
    const p = this.parser;
    p.on('opentagstart', () => {
      this.tagLine = p.line;
    });
    p.on('opentag', (tag) => this.open(tag));
    p.on('closetag', (tag) => this.close(localName(tag.name)));
    p.on('text', (t) => {
      if (this.text !== null) this.text += t;
    });
    p.on('cdata', (t) => {
      if (this.text !== null) this.text += t;
    });
    p.on('error', (err) => {
      throw new PmParseError(p.line, `malformed XML: ${err.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '').replace(/\.$/, '')}`);
    });
  }

  write(text: string): void {
    if (text.length > 0) this.parser.write(text);
  }

  finish(): void {
    if (!this.rootSeen) throw new PmParseError(this.parser.line, `the file is empty: no <${ROOT}> root element`);
    if (!this.rootClosed) throw new PmParseError(this.parser.line, 'unexpected end of file');
    this.parser.close();
  }

  private fail(reason: string): PmParseError {
    return new PmParseError(this.tagLine, reason);
  }

  private open(tag: SaxesTagPlain): void {
    const name = localName(tag.name);
    const attr = (key: string): string | null => {
      const found = Object.entries(tag.attributes).find(([k]) => localName(k) === key);
      return found ? found[1] : null;
    };
    if (this.stack.length === 0) {
      if (this.rootClosed) throw this.fail(`unexpected element <${tag.name}> after the root element`);
      if (name !== ROOT) throw this.fail(`the root element is <${tag.name}>; a TS 32.435 PM file starts with <${ROOT}>`);
      this.rootSeen = true;
    }
    this.stack.push(name);
    const parent = this.stack[this.stack.length - 2];
    switch (name) {
      case 'fileSender':
        this.senderNode = nodeOfDn(attr('localDn')) ?? attr('localDn');
        break;
      case 'measData':
        this.elementNode = null;
        break;
      case 'managedElement':
        if (parent === 'measData') {
          const dn = attr('localDn');
          const label = attr('userLabel');
          this.elementNode = nodeOfDn(dn) ?? (label && label.trim() !== '' ? label.trim() : null) ?? (dn && !dn.includes('=') ? dn.trim() : null);
        }
        break;
      case 'measInfo':
        this.info = { endTime: null, types: new Map(), typesText: null };
        break;
      case 'granPeriod':
        if (this.info) this.info.endTime = attr('endTime');
        break;
      case 'measTypes':
      case 'measResults':
      case 'suspect':
        this.text = '';
        break;
      case 'measType':
      case 'r':
        this.text = '';
        this.attrP = attr('p');
        if (this.attrP === null) throw this.fail(`<${tag.name}> has no p attribute`);
        break;
      case 'measValue': {
        if (!this.info) throw this.fail('<measValue> outside <measInfo>');
        const object = attr('measObjLdn');
        if (object === null) throw this.fail('<measValue> has no measObjLdn attribute');
        this.value = { object, line: this.tagLine, resultsText: null, byP: new Map(), suspect: false };
        break;
      }
      default:
        break;
    }
  }

  private close(name: string): void {
    this.stack.pop();
    if (this.stack.length === 0) this.rootClosed = true;
    const text = this.text ?? '';
    switch (name) {
      case 'measTypes':
        if (this.info) this.info.typesText = text;
        this.text = null;
        break;
      case 'measType':
        if (this.info && this.attrP !== null) this.info.types.set(this.attrP, text.trim());
        this.text = null;
        break;
      case 'measResults':
        if (this.value) this.value.resultsText = text;
        this.text = null;
        break;
      case 'r':
        if (this.value && this.attrP !== null) this.value.byP.set(this.attrP, text);
        this.text = null;
        break;
      case 'suspect':
        if (this.value) this.value.suspect = text.trim().toLowerCase() === 'true';
        this.text = null;
        break;
      case 'measValue':
        this.emit();
        break;
      case 'measInfo':
        this.info = null;
        break;
      default:
        break;
    }
  }

  private emit(): void {
    const info = this.info;
    const value = this.value;
    this.value = null;
    if (!info || !value) return;
    const counters = new Map<string, number | null>();
    if (value.resultsText !== null) {
      const names = (info.typesText ?? '').trim().split(/\s+/).filter(Boolean);
      const results = value.resultsText.trim().split(/\s+/).filter(Boolean);
      if (results.length !== names.length) {
        throw new PmParseError(value.line, `measResults has ${results.length} values for ${names.length} measTypes`);
      }
      names.forEach((n, i) => counters.set(n, numberOf(results[i]!)));
    } else {
      for (const [p, raw] of value.byP) {
        const counter = info.types.get(p);
        if (counter === undefined) throw new PmParseError(value.line, `r p="${p}" has no measType p="${p}"`);
        counters.set(counter, numberOf(raw));
      }
    }
    const node = nodeOfDn(value.object) ?? this.elementNode ?? this.senderNode;
    if (!node) throw new PmParseError(value.line, `no node is named for measObjLdn "${value.object.slice(0, 100)}"`);
    this.count += 1;
    this.onValue({ node, object: value.object, cell: cellOf(value.object), counters, suspect: value.suspect, endTime: info.endTime, line: value.line });
  }
}

/**
 * Reads a measCollecFile from byte (or text) chunks, calling `onValue` for each measValue in document
 * order. Throws PmParseError (with the line) for anything malformed; values already passed on must then
 * be discarded by the caller. Answers the number of measValues read.
 */
export async function readMeasCollec(
  input: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  onValue: (value: MeasValue) => void,
): Promise<number> {
  const reader = new MeasCollecReader(onValue);
  const decoder = new TextDecoder('utf-8', { fatal: false });
  for await (const chunk of input) reader.write(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
  reader.write(decoder.decode());
  reader.finish();
  return reader.count;
}
