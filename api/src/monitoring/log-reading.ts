import { decodeLogBytes, parseNodeLog, type MoTech, type NodeLogResult, type ParseOptions } from '../domain/amos';
import { CHECKED_ATTRIBUTES } from '../domain/monitoring';

/**
 * What the parse job keeps of one node log until its batch is staged (ingest.ts): the parser's result
 * without what the monitoring tables never store. Relation tables alone made most of a result (three
 * values per relation, a few thousand relations per node), so they are let go as each log is read.
 * The rows keep the strings the parser cut from the log: a batch is written out within
 * BATCH_LOGS logs or BATCH_BYTES of their text, and the log's text goes with it.
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

/** Drops rows of other nodes (a multi-node log's foreign prompts) and what is never stored; the rows kept are `result`'s own. */
export function keptOf(result: NodeLogResult): KeptLog {
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
  return { result: kept, droppedAttributeTechs: [...dropped] };
}

/** One node log's bytes (UTF-8) read as the parse job keeps it. */
export function readNodeLog(data: Uint8Array, archive: string, file: string, options: LogReadOptions = {}): KeptLog {
  const text = decodeLogBytes(data);
  return keptOf(parseNodeLog(text, { archive, file }, parseOptionsOf(options)));
}

/** What the parse job asks of the parser: only the stored attributes are built (the bench reads logs with the same). */
export function parseOptionsOf(options: LogReadOptions = {}): ParseOptions {
  return { defaultUtcOffsetMinutes: options.defaultUtcOffsetMinutes, keepAttributes: STORED_ATTRIBUTES };
}
