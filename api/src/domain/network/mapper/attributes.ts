import { detachedString } from '../../../lib/detached-string';
import { NetworkParseError } from '../errors';
import { type Attributes, type DnComponent, type MoRecord, splitDn } from '../records';

/**
 * Reading a record's attributes: under any of the names vendors and releases use, whatever their case,
 * as the type the model wants (a bad value is a {@link NetworkParseError} naming the MO and the line).
 */

/**
 * Lower-cased attribute names. Names come from a small vocabulary, so lower-casing each once saves a
 * string per lookup; the bound keeps a file of ever new names from growing it.
 */
const lowerNames = new Map<string, string>();
const LOWER_NAMES_LIMIT = 10_000;

function lower(name: string): string {
  let l = lowerNames.get(name);
  if (l === undefined) {
    // Copies: the table outlives the import, and a name cut from the file's text would keep its chunk.
    l = detachedString(name.toLowerCase());
    if (lowerNames.size < LOWER_NAMES_LIMIT) lowerNames.set(detachedString(name), l);
  }
  return l;
}

/**
 * Every attribute name the mapper has been given (as spelt in the files), by lower-cased name. Most
 * lookups miss (a value is looked for under every name any vendor or release uses); a miss then costs
 * one map lookup and a check of the other spellings, almost always none, instead of re-keying each
 * record by lower-cased name. Process-wide, as the names are a small vocabulary shared by imports.
 */
const spellings = new Map<string, string[]>();
const spelt = new Set<string>();
/** Past this many names (a file of ever new ones), lookups fold each record's keys instead. */
const SPELLINGS_LIMIT = 50_000;
let spellingsFull = false;

/** Records every key of `attrs` before any lookup in it. */
export function learnNames(attrs: Attributes): void {
  if (spellingsFull) return;
  for (const k in attrs) {
    if (spelt.has(k)) continue;
    if (spelt.size >= SPELLINGS_LIMIT) {
      spellingsFull = true;
      return;
    }
    // Copies: the table outlives the import, and a name cut from the file's text would keep its chunk.
    const name = detachedString(k);
    spelt.add(name);
    const l = lower(name);
    const known = spellings.get(l);
    if (known) known.push(name);
    else spellings.set(l, [name]);
  }
}

/** After {@link SPELLINGS_LIMIT}: each record's keys by lower-cased name (the last of several), built on its first miss. */
const foldedKeys = new WeakMap<Attributes, Map<string, string>>();

function foldedKeyOf(attrs: Attributes, name: string): string | null {
  let folded = foldedKeys.get(attrs);
  if (folded === undefined) {
    folded = new Map();
    for (const k in attrs) folded.set(lower(k), k);
    foldedKeys.set(attrs, folded);
  }
  return folded.get(lower(name)) ?? null;
}

/**
 * The key under which `attrs` holds `name`: the name itself, else a key equal to it but for case
 * (Ericsson `earfcndl` vs 3GPP `earfcnDl`; of several such keys, the last); null when none.
 */
function keyOf(attrs: Attributes, name: string): string | null {
  if (attrs[name] !== undefined) return name;
  if (spellingsFull) return foldedKeyOf(attrs, name);
  const l = lower(name);
  const others = spellings.get(l);
  if (others === undefined) return null;
  let found: string | null = null;
  let several = false;
  for (const o of others) {
    if (attrs[o] === undefined) continue;
    if (found !== null) several = true;
    found = o;
  }
  if (several) for (const k in attrs) if (lower(k) === l) found = k;
  return found;
}

export function list(rec: MoRecord | null, name: string): string[] {
  if (!rec) return [];
  const key = keyOf(rec.attributes, name);
  if (key === null) return [];
  const v = rec.attributes[key] as string | string[];
  return typeof v === 'string' ? [v] : v;
}

/** First non-blank value of the first present attribute among `names`, with the key it came from. */
export function first(rec: MoRecord | null, names: readonly string[]): { key: string; value: string } | null {
  if (!rec) return null;
  for (const n of names) {
    const key = keyOf(rec.attributes, n);
    if (key === null) continue;
    const v = rec.attributes[key] as string | string[];
    const one = typeof v === 'string' ? v : v[0];
    if (one !== undefined) {
      const value = one.trim();
      if (value !== '') return { key, value };
    }
  }
  return null;
}

export function str(rec: MoRecord | null, ...names: string[]): string | null {
  return first(rec, names)?.value ?? null;
}

export function badValue(rec: MoRecord, name: string, value: string, expected: string): NetworkParseError {
  return new NetworkParseError(rec.line ?? 0, rec.column ?? 1, `${rec.className}=${rec.id}: attribute ${name} = "${value}" is not ${expected}`);
}

export function int(rec: MoRecord | null, ...names: string[]): number | null {
  const f = first(rec, names);
  if (!rec || !f) return null;
  if (!/^[-+]?\d+$/.test(f.value)) throw badValue(rec, f.key, f.value, 'an integer');
  return Number(f.value);
}

export function num(rec: MoRecord | null, ...names: string[]): number | null {
  const f = first(rec, names);
  if (!rec || !f) return null;
  const x = Number(f.value);
  if (!Number.isFinite(x)) throw badValue(rec, f.key, f.value, 'a number');
  return x;
}

export function bool(rec: MoRecord, names: string[], fallback: boolean): boolean {
  const f = first(rec, names);
  if (!f) return fallback;
  const t = f.value.toLowerCase();
  if (t === 'true' || t === '1' || t === 'yes') return true;
  if (t === 'false' || t === '0' || t === 'no') return false;
  throw badValue(rec, f.key, f.value, 'a boolean');
}

/** Last component id of a reference DN, as a number when it is one (e.g. `...,LocationArea=1234` → 1234). */
export function refId(ref: string | null): number | null {
  if (ref === null) return null;
  const parts = splitDn(ref);
  const last = parts?.[parts.length - 1];
  return last && /^\d+$/.test(last.id) ? Number(last.id) : null;
}

/**
 * The last components of reference DNs already split: a dump names the same few targets over and over
 * (every relation to a cell, every cell to its frequency). Bounded, so a file of ever new references
 * does not grow it.
 */
export interface RefTarget extends DnComponent {
  /** `Class=id`: how the node's frequencies are keyed, made once per reference rather than per lookup. */
  key: string;
}
const lastComponents = new Map<string, RefTarget | null>();
const LAST_COMPONENTS_LIMIT = 50_000;

export function lastComponent(ref: string | null): RefTarget | null {
  if (ref === null) return null;
  let last = lastComponents.get(ref);
  if (last === undefined) {
    const parts = splitDn(ref);
    const found = parts?.[parts.length - 1];
    // Copies: the reference was cut from a 64 KB chunk of the file, and a cached cut kept the whole chunk
    // alive, so an import held most of its file (62 MB of a 94 MB dump) until the cache was cleared.
    last = found ? { className: detachedString(found.className), id: detachedString(found.id), key: detachedString(`${found.className}=${found.id}`) } : null;
    if (lastComponents.size >= LAST_COMPONENTS_LIMIT) lastComponents.clear();
    lastComponents.set(detachedString(ref), last);
  }
  return last;
}

/** `attrs` gained keys (a second record of the MO): its fold, if one was made, is stale. */
export function forgetFolded(attrs: Attributes): void {
  foldedKeys.delete(attrs);
}
