import { ChunkDecoder } from './decode';
import { NetworkParseError } from './errors';
import { addAttribute, assertChunk, type Attributes, type ChunkSource, type MoRecord, splitDn } from './records';

/**
 * Streaming reader for ENM `cmedit get` text exports:
 *
 *     FDN : SubNetwork=LRAN,MeContext=LX0001,ManagedElement=1,ENodeBFunction=1,EUtranCellFDD=LX0001_L800_1
 *     earfcndl : 6300
 *     activePlmnList : [{mcc=268, mnc=1, mncLength=2}, {mcc=268, mnc=3, mncLength=2}]
 *
 *     FDN : ...
 *
 *     2 instance(s)
 *
 * Values: `null` becomes '' (unset, as an empty XML element would); `[a, b]` becomes string[] (always
 * an array, even with one or no item); structs `{k=v, ...}` and lists of structs are flattened as
 * `attr.k` exactly like Bulk CM XML structs (a repeated field becomes an array). Lines are read one at
 * a time; only the current record is held.
 *
 * A trailer `N instance(s)` is checked against the number of records (a mismatch means a truncated or
 * concatenated export). Leading `cmedit ...` command echo lines are skipped; any other line outside a
 * record is an error, as is an `Error NNNN : ...` line from ENM.
 */

const FDN_RE = /^\s*FDN\s*:\s*(.*?)\s*$/;
const ATTR_RE = /^\s*([A-Za-z_][\w.-]*)\s*:(?:\s?(.*))?$/;
const TRAILER_RE = /^\s*(\d+)\s+instance\(s\)/i;
const ENM_ERROR_RE = /^\s*Error\s+\d+\s*:/i;

interface Pending {
  dn: string;
  className: string;
  id: string;
  parentDn: string | null;
  attributes: Attributes;
  line: number;
}

export async function* parseCmedit(input: ChunkSource): AsyncGenerator<MoRecord> {
  for await (const batch of parseCmeditBatches(input)) yield* batch;
}

/** {@link parseCmedit} a batch at a time: the records completed by one input chunk, never empty. */
export async function* parseCmeditBatches(input: ChunkSource): AsyncGenerator<MoRecord[]> {
  const reader = new CmeditReader();
  const decoder = new ChunkDecoder({ xml: false, position: () => ({ line: reader.lineNo + 1, column: 1 }) });
  for await (const raw of input) {
    reader.feed(decoder.push(assertChunk(raw)));
    const batch = reader.take();
    if (batch) yield batch;
  }
  reader.feed(decoder.end());
  reader.finish();
  const last = reader.take();
  if (last) yield last;
}

class CmeditReader {
  lineNo = 0;
  private partial = '';
  private current: Pending | null = null;
  private queue: MoRecord[] = [];
  private records = 0;
  private trailerSeen = false;
  private started = false;

  feed(text: string): void {
    if (text.length === 0) return;
    const data = this.partial + text;
    let start = 0;
    for (;;) {
      const nl = data.indexOf('\n', start);
      if (nl < 0) break;
      this.line(data.slice(start, nl));
      start = nl + 1;
    }
    this.partial = data.slice(start);
  }

  finish(): void {
    if (this.partial.length > 0) {
      const last = this.partial;
      this.partial = '';
      this.line(last);
    }
    this.flush();
    if (!this.started) throw new NetworkParseError(Math.max(1, this.lineNo), 1, 'the export is empty: no "FDN : ..." record');
  }

  /** The records completed since the last call; null when there are none. */
  take(): MoRecord[] | null {
    if (this.queue.length === 0) return null;
    const out = this.queue;
    this.queue = [];
    return out;
  }

  private fail(reason: string, column = 1): NetworkParseError {
    return new NetworkParseError(this.lineNo, column, reason);
  }

  private line(rawLine: string): void {
    this.lineNo++;
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (line.trim() === '') {
      this.flush();
      return;
    }
    if (this.trailerSeen) throw this.fail(`unexpected text after the "instance(s)" trailer: "${clip(line)}"`);
    if (ENM_ERROR_RE.test(line)) throw this.fail(`the export contains an ENM error: "${clip(line.trim())}"`);
    const trailer = TRAILER_RE.exec(line);
    if (trailer) {
      this.flush();
      this.trailerSeen = true;
      this.started = true;
      const expected = Number(trailer[1]);
      if (expected !== this.records) {
        throw this.fail(`the trailer announces ${expected} instance(s) but the export holds ${this.records} record(s): truncated or edited export`);
      }
      return;
    }
    const fdn = FDN_RE.exec(line);
    if (fdn) {
      this.flush();
      this.startRecord(fdn[1] as string, line.indexOf(':') + 2);
      return;
    }
    if (!this.current) {
      if (!this.started && /^\s*cmedit\s/.test(line)) return;
      throw this.fail(`expected "FDN : <distinguished name>" to start a record, found "${clip(line)}"`);
    }
    const attr = ATTR_RE.exec(line);
    if (!attr) throw this.fail(`expected "attribute : value" in the record of ${this.current.dn}, found "${clip(line)}"`);
    const name = attr[1] as string;
    const value = (attr[2] ?? '').trim();
    const valueColumn = line.length - (attr[2] ?? '').trimStart().length + 1;
    this.value(this.current.attributes, name, value, valueColumn);
  }

  private startRecord(dn: string, column: number): void {
    const parts = splitDn(dn);
    if (!parts) throw this.fail(`malformed FDN "${clip(dn)}": expected Class=id components separated by commas`, column);
    const last = parts[parts.length - 1] as { className: string; id: string };
    const comma = dn.lastIndexOf(',');
    this.started = true;
    this.current = {
      dn: parts.map((p) => `${p.className}=${p.id}`).join(','),
      className: last.className,
      id: last.id,
      parentDn:
        comma < 0
          ? null
          : parts
              .slice(0, -1)
              .map((p) => `${p.className}=${p.id}`)
              .join(','),
      attributes: {},
      line: this.lineNo,
    };
  }

  private flush(): void {
    const rec = this.current;
    if (!rec) return;
    this.current = null;
    this.records++;
    this.queue.push({ ...rec, column: 1 });
  }

  private value(attrs: Attributes, name: string, raw: string, column: number): void {
    if (raw === 'null') {
      attrs[name] = '';
      return;
    }
    const first = raw.charAt(0);
    if (first !== '[' && first !== '{') {
      attrs[name] = raw;
      return;
    }
    const closing = first === '[' ? ']' : '}';
    if (!raw.endsWith(closing)) throw this.fail(`unterminated ${first === '[' ? 'list' : 'struct'} in ${name}`, column);
    const parsed = parseValue(raw, (reason) => this.fail(`${reason} in ${name}`, column));
    if (parsed.kind === 'list' && parsed.items.every((i) => i.kind === 'scalar')) {
      // Lists of scalars stay arrays even with a single element: the count carries meaning (e.g. PLMN lists).
      attrs[name] = parsed.items.map((i) => (i.kind === 'scalar' ? i.value : ''));
      return;
    }
    flatten(attrs, name, parsed);
  }
}

type Value = { kind: 'scalar'; value: string } | { kind: 'list'; items: Value[] } | { kind: 'struct'; fields: Array<[string, Value]> };

function flatten(attrs: Attributes, key: string, v: Value): void {
  switch (v.kind) {
    case 'scalar':
      addAttribute(attrs, key, v.value);
      return;
    case 'list':
      for (const item of v.items) flatten(attrs, key, item);
      return;
    case 'struct':
      for (const [k, fv] of v.fields) flatten(attrs, `${key}.${k}`, fv);
      return;
  }
}

/** Parses `[...]`, `{k=v,...}` or a scalar; `fail` builds the error for unbalanced input. */
function parseValue(text: string, fail: (reason: string) => Error): Value {
  const s = text.trim();
  if (s.startsWith('[')) {
    if (!s.endsWith(']')) throw fail('unterminated list');
    const inner = s.slice(1, -1).trim();
    return { kind: 'list', items: inner === '' ? [] : splitTopLevel(inner, fail).map((p) => parseValue(p, fail)) };
  }
  if (s.startsWith('{')) {
    if (!s.endsWith('}')) throw fail('unterminated struct');
    const inner = s.slice(1, -1).trim();
    const fields: Array<[string, Value]> = [];
    if (inner !== '') {
      for (const part of splitTopLevel(inner, fail)) {
        const eq = part.indexOf('=');
        if (eq <= 0) throw fail(`struct member "${clip(part)}" is not name=value`);
        const v = part.slice(eq + 1).trim();
        fields.push([part.slice(0, eq).trim(), v === 'null' ? { kind: 'scalar', value: '' } : parseValue(v, fail)]);
      }
    }
    return { kind: 'struct', fields };
  }
  return { kind: 'scalar', value: s };
}

/**
 * Splits list items / struct members at top-level commas. ENM prints separators as ", " while DNs
 * inside values use bare commas (`[SubNetwork=A,MeContext=B, SubNetwork=A,MeContext=C]`), so when a
 * ", " separator exists only those split; a value without any (`[1,2,3]`) splits on bare commas unless
 * it holds `=` (then it is one DN or one member).
 */
function splitTopLevel(s: string, fail: (reason: string) => Error): string[] {
  const spaced: number[] = [];
  const bare: number[] = [];
  const open: string[] = [];
  let quote: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const c = s.charAt(i);
    if (quote) {
      if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '{') open.push(c === '[' ? ']' : '}');
    else if (c === ']' || c === '}') {
      if (open.pop() !== c) throw fail(`unbalanced "${c}"`);
    } else if (c === ',' && open.length === 0) {
      (/\s/.test(s.charAt(i + 1)) ? spaced : bare).push(i);
    }
  }
  if (open.length > 0 || quote) throw fail('unbalanced brackets');
  const cuts = spaced.length > 0 ? spaced : s.includes('=') ? [] : bare;
  const parts: string[] = [];
  let start = 0;
  for (const at of cuts) {
    parts.push(s.slice(start, at).trim());
    start = at + 1;
  }
  parts.push(s.slice(start).trim());
  return parts;
}

function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
