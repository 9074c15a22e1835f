import { decodeLogBytes, parseNodeLog, type MoTech, type NodeLogResult, type ParseOptions } from '../domain/amos';
import { CHECKED_ATTRIBUTES } from '../domain/monitoring';
import { detachedString, SLICED_FROM } from '../lib/detached-string';

/**
 * What the parse job keeps of one node log while it reads the rest: the parser's result without what
 * the monitoring tables never store. A parse holds every log's result until its one save, and relation
 * tables alone made most of that (three values per relation, a few thousand relations per node), so
 * they are let go as each log is read, not at the save.
 */

/**
 * Attributes kept in monitoring_attributes: the parameters the configuration checks read, as the node
 * reported them. A `get` may print thousands of others (relations, term points); their verdicts live in
 * the findings, and storing every value made a save cost more than the parse.
 */
export const STORED_ATTRIBUTES: ReadonlySet<string> = new Set(Object.values(CHECKED_ATTRIBUTES).flat());

export interface KeptLog {
  result: NodeLogResult;
  /** Technologies of the node's attribute rows that were dropped: they still say which technologies the node runs. */
  droppedAttributeTechs: MoTech[];
}

export interface LogReadOptions {
  /** Offset for headers without a zone and `Local` alarm tables; without it, such times are read as UTC. */
  defaultUtcOffsetMinutes?: number;
}

/**
 * Fields cut from the log whose values repeat across rows and logs (a few dozen alarm texts, states,
 * attribute names and values, commands, MO classes): one string per distinct value serves the whole
 * parse. Fields the parser fills from its own constants (severity, technology, time basis) need nothing.
 */
const SHARED_FIELDS: ReadonlySet<string> = new Set([
  'command',
  'moClass',
  'specificProblem',
  'additionalInfo',
  'operator',
  'admState',
  'opState',
  'attribute',
  'value',
  'version',
  'model',
  'zone',
  'stopfile',
]);

/** Past this many distinct values the table stops growing: a field that does not repeat after all costs no more than before. */
const MAX_SHARED_STRINGS = 50_000;

/**
 * The repeating strings a parse job keeps ({@link SHARED_FIELDS}), one per distinct value: the job holds
 * every log's rows until its one save, each alarm, state and value with its own copy of texts that recur
 * thousands of times (`Service Unavailable`, `1 (ENABLED)`, a `get` command). Shared by every log of a
 * parse, it took a sixth off the heap a 218 MB log set holds (bench/monitoring-parse.mjs).
 */
export class KeptStrings {
  private readonly shared = new Map<string, string>();

  /** Distinct values held. */
  get size(): number {
    return this.shared.size;
  }

  /** The one string of `text`'s value (a copy of its own the first time). */
  of(text: string): string {
    const held = this.shared.get(text);
    if (held !== undefined) return held;
    const copy = detachedString(text);
    if (this.shared.size < MAX_SHARED_STRINGS) this.shared.set(copy, copy);
    return copy;
  }
}

/**
 * The copy of the string each other field last held, by field name: rows in a row carry the same MO or
 * cell, and one copy serves them all (one pointer comparison, where a table look-up hashes the text).
 */
type LastCopies = Map<string, { original: string; copy: string }>;

/**
 * Gives the kept rows strings that no longer point into the log's text, in place: {@link SHARED_FIELDS}
 * through the parse's table, every other string (MOs, cells, times) copied once per run of rows. The
 * rows are the parser's own, made for this log, and copying each row cost more than its strings.
 * `source` is skipped: its archive and file names are the caller's, never cut from the log.
 */
function detachStrings(value: object, parse: KeptStrings, lastCopies: LastCopies): void {
  if (value instanceof Date) return;
  // Plain loops: a parse keeps tens of thousands of rows, and Object.entries built an array per row.
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const item: unknown = value[i];
      if (typeof item === 'string') value[i] = detachedString(item);
      else if (item !== null && typeof item === 'object') detachStrings(item, parse, lastCopies);
    }
    return;
  }
  const fields = value as Record<string, unknown>;
  for (const key in fields) {
    if (key === 'source') continue;
    const field = fields[key];
    if (typeof field === 'string') {
      if (SHARED_FIELDS.has(key)) {
        fields[key] = parse.of(field);
        continue;
      }
      if (field.length < SLICED_FROM) continue;
      const last = lastCopies.get(key);
      // The same string again is one pointer comparison; an equal one read elsewhere shares the copy too.
      if (last !== undefined && last.original === field) {
        fields[key] = last.copy;
        continue;
      }
      const copy = detachedString(field);
      lastCopies.set(key, { original: field, copy });
      fields[key] = copy;
    } else if (field !== null && typeof field === 'object') detachStrings(field, parse, lastCopies);
  }
}

/**
 * Drops rows of other nodes (a multi-node log's foreign prompts) and what is never stored. The rows kept
 * are `result`'s own, their strings detached in place (shared through `strings`, the parse's table).
 */
export function keptOf(result: NodeLogResult, strings: KeptStrings = new KeptStrings()): KeptLog {
  const node = result.node.toLowerCase();
  const own = (row: { node: string }) => row.node === result.node || row.node.toLowerCase() === node;
  const attributes: NodeLogResult['attributes'] = [];
  // The parser skipped the values the tables never store (readNodeLog): their MOs' technologies come with it.
  const dropped = new Set<MoTech>(result.skippedAttributeTechs);
  for (const a of result.attributes) {
    if (!own(a)) continue;
    if (STORED_ATTRIBUTES.has(a.attribute)) attributes.push(a);
    else if (a.tech !== 'site') dropped.add(a.tech);
  }
  const kept: NodeLogResult = {
    ...result,
    blocks: result.blocks.filter(own),
    alarms: result.alarms.filter(own),
    alarmLog: [],
    states: result.states.filter(own),
    attributes,
    ret: result.ret.filter(own),
    cvs: [],
    moTrees: [],
    raw: [],
    skippedAttributeTechs: [], // in droppedAttributeTechs
  };
  detachStrings(kept, strings, new Map());
  return { result: kept, droppedAttributeTechs: [...dropped] };
}

/** One node log's bytes (UTF-8) read as the parse job keeps it; `strings` is the parse's table, shared by its logs. */
export function readNodeLog(data: Uint8Array, archive: string, file: string, options: LogReadOptions = {}, strings = new KeptStrings()): KeptLog {
  const text = decodeLogBytes(data);
  return keptOf(parseNodeLog(text, { archive, file }, parseOptionsOf(options)), strings);
}

/** What the parse job asks of the parser: only the stored attributes are built (the bench reads logs with the same). */
export function parseOptionsOf(options: LogReadOptions = {}): ParseOptions {
  return { defaultUtcOffsetMinutes: options.defaultUtcOffsetMinutes, keepAttributes: STORED_ATTRIBUTES };
}
