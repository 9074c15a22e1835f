/** Attribute values of one managed object; repeated elements become arrays, structs are flattened as `struct.field`. */
export type Attributes = Record<string, string | string[]>;

/** One managed object as read from a dump (Bulk CM XML or cmedit text), before any interpretation. */
export interface MoRecord {
  /** Full distinguished name, e.g. `SubNetwork=LRAN,MeContext=LX0001,ManagedElement=1,ENodeBFunction=1,EUtranCellFDD=A`. */
  dn: string;
  /** MO class (3GPP or Ericsson name, `vsData` prefix stripped). */
  className: string;
  id: string;
  parentDn: string | null;
  attributes: Attributes;
  /** True when the MO came from a vendor-specific container (`VsDataContainer`). */
  vendor?: boolean;
  /** Where the MO starts in the source (1-based), so later stages can point at the offending line. */
  line?: number;
  column?: number;
  /**
   * The DN's components, outermost first, when the reader built the DN from them (the Bulk CM reader
   * does): each step is the same object in every record below it, and carries the DN up to itself, so
   * the mapper neither splits `dn` again nor joins a prefix of it (docs/engines/network.md).
   */
  path?: readonly DnStep[];
}

/** What the parsers accept: a Node `Readable`, or any (async) iterable of byte or text chunks. */
export type Chunk = Uint8Array | string;
export type ChunkSource = AsyncIterable<Chunk> | Iterable<Chunk>;

export interface DnComponent {
  className: string;
  id: string;
}

/** A component of a DN as a reader hands it over: with the DN up to and including it. */
export interface DnStep extends DnComponent {
  readonly dn: string;
}

/**
 * Splits a DN into its `Class=id` components. Ids may contain `=` (only the first one separates);
 * commas inside ids are not supported because neither Ericsson nor 3GPP dumps produce them unescaped.
 */
export function splitDn(dn: string): DnComponent[] | null {
  if (dn.trim() === '') return null;
  const out: DnComponent[] = [];
  for (const part of dn.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return null;
    const className = part.slice(0, eq).trim();
    const id = part.slice(eq + 1).trim();
    if (className === '' || id === '') return null;
    out.push({ className, id });
  }
  return out;
}

/** Adds a value under `key`, turning a repeated key into an array (the XML and cmedit readers share this rule). */
export function addAttribute(attrs: Attributes, key: string, value: string): void {
  const prev = attrs[key];
  if (prev === undefined) attrs[key] = value;
  else if (typeof prev === 'string') attrs[key] = [prev, value];
  else prev.push(value);
}

/** Node `Readable`s are async iterables of Buffer/string; anything else in a chunk is a programming error. */
export function assertChunk(chunk: unknown): Chunk {
  if (typeof chunk === 'string' || chunk instanceof Uint8Array) return chunk;
  throw new TypeError(`network parser: expected Buffer/Uint8Array/string chunks, got ${typeof chunk}`);
}
