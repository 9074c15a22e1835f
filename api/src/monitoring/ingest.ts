import { sql, type Kysely } from 'kysely';
import { INCOMPLETE_LOG, type ParseCounts, type ParsedFile, type ParseProblem, type ParseReport } from 'contracts';
import type { Database } from '../db/schema';
import { scopedTo } from '../db/operator-scope';
import { refreshStatistics } from '../db/statistics';
import { parseMobatchResult, type MobatchEntry, type MoTech, type NodeLogResult, type Problem } from '../domain/amos';
import { evaluateNode, type InventoryCell, type InventoryFacts, type NodeEvaluation } from '../domain/monitoring';
import { defaultSiteId } from '../domain/network/site-rule';
import { ARCHIVE_LIMITS, readArchiveFiles, ZipReadError } from '../files';
import { readZipFile, zipLayout } from '../files/zip';
import { recordAlarmChanges, type ChangedNode } from './alarm-console';
import { type KeptLog, readNodeLog } from './log-reading';
import { NODE_ROW_TABLES, ParseStaging, type NodeRowTable, type Row, type StagedRows } from './parse-staging';
import { refreshSiteStatuses } from './site-statuses';

/**
 * Ingestion of MoBatch log archives (docs/engines/amos.md#the-parse): logs are read and parsed in
 * batches, and each batch's rows are written to the parse's staging area (parse-staging.ts) before the
 * next is read, so the heap holds one batch whatever the archive's size. When every log is read, one
 * transaction stores the parse (the history row with its per-file report) and swaps each node's rows
 * for those of its newest log. A refused archive, a failure or a kill midway stores nothing of the parse.
 */

export interface ArchiveInput {
  /** The name shown to the user (the uploaded file's name). */
  name: string;
  /** Path of the archive on disk. */
  file: string;
}

export interface IngestOptions {
  parsedBy: number | null;
  jobId: string | null;
  now?: Date;
  progress?: (percent: number, text: string) => void;
  signal?: AbortSignal;
  /** Offset for headers without a zone and `Local` alarm tables; without it, such times are read as UTC. */
  defaultUtcOffsetMinutes?: number;
  /** Logs per staged batch (default {@link BATCH_LOGS}). */
  batchLogs?: number;
  /** Told after each batch is written to the staging area: the logs staged so far and their rows (awaited). */
  staged?: (logs: number, rows: number) => void | Promise<void>;
}

/** An archive that is not a MoBatch log set: the caller answers 400 with the message. */
export class LogArchiveError extends Error {
  override readonly name = 'LogArchiveError';
  readonly statusCode = 400;
}

/**
 * Archives that hold logs, none of which the parser could read (junk, empty files, no prompt): the
 * caller answers 422 with each file's reasons, and nothing is stored — no parse is recorded as done.
 */
export class UnusableLogsError extends Error {
  override readonly name = 'UnusableLogsError';
  readonly statusCode = 422;
  constructor(
    message: string,
    /** Every file of the archives with why it could not be read. */
    readonly files: ParsedFile[],
  ) {
    super(message);
  }
}

/** Files named in a refusal's message before "and N more" (the answer lists them all). */
const FILES_IN_MESSAGE = 5;

export const INGEST_MESSAGES = {
  noLogs: (archive: string) => `The archive ${archive} holds no MoBatch logs (<node>.log, or AMOS output saved as .txt).`,
  notAmosText: 'not AMOS/moshell output (no `<node>> <command>` prompt and no command table that is recognised); the file was not read',
  notRead: 'not a MoBatch log: only <node>.log, AMOS output saved as .txt and mobatch_result.txt are read; the file was not read',
  nothingUsable: (archives: readonly string[], files: readonly ParsedFile[]) => {
    const read = files.filter((f) => f.outcome !== 'ignored');
    const why = read.slice(0, FILES_IN_MESSAGE).map((f) => {
      const first = f.problems[0];
      return first ? `${f.file} line ${first.line}: ${first.reason}` : f.file;
    });
    const more = read.length > FILES_IN_MESSAGE ? `; and ${read.length - FILES_IN_MESSAGE} more` : '';
    return `Nothing usable in ${archives.join(', ')}: no log could be read (${why.join('; ')}${more}). Nothing was stored.`;
  },
  incompleteAlarms: (file: string, gap: string, kept: boolean) =>
    `Incomplete log: ${file} ${gap}. ${kept ? "The previous log's alarms are kept, marked stale" : 'The alarms read are shown, marked stale'}, until a complete log comes.`,
  unreadable: (file: string, reason: string) =>
    `Incomplete log: nothing could be read from ${file} (${reason}). The previous log's results are kept, marked stale, until a log of this node is read.`,
  incompleteStates: (file: string, gap: string) => `Incomplete log: ${file} ${gap}. The previous states are kept until a complete log comes.`,
} as const;

/** Problems listed per file in the report (all are counted). */
export const PROBLEMS_PER_FILE = 50;
/** A single log larger than this is not decoded (a string that size is most of what a thread may hold). */
export const MAX_LOG_BYTES = 200_000_000;
/** Names per `in (…)` list: far below every dialect's parameter limit. */
const NAME_CHUNK = 500;

type Db = Kysely<Database>;

/** A node log read from an archive. */
interface LogRead {
  archive: string;
  file: string;
  result: NodeLogResult;
  droppedAttributeTechs: MoTech[];
  report: ParsedFile;
}

/** An unreachable node known only from mobatch_result.txt. */
interface ResultRead {
  archive: string;
  entry: MobatchEntry;
  report: ParsedFile;
}

interface InventoryNode {
  name: string;
  siteId: string | null;
  technology: string | null;
  cells: InventoryCell[];
}

const isLog = (name: string) => /\.log$/i.test(name);
/** Pasted output is saved as `.txt` too: read as a log when its content is AMOS output, else reported. */
const isText = (name: string) => /\.txt$/i.test(name);
const baseName = (name: string) => name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
const isMobatchResult = (name: string) => baseName(name).toLowerCase() === 'mobatch_result.txt';
/** macOS zips carry `__MACOSX/._LX0001.log` resource forks: binary, and not logs. */
const isMacJunk = (name: string) => /(^|[\\/])__MACOSX[\\/]/.test(name) || baseName(name).startsWith('._');
/** Entries the parse reads: logs, `.txt` files (AMOS output or not, their content says) and mobatch_result.txt, not macOS junk. */
const isRead = (name: string) => !isMacJunk(name) && (isLog(name) || isText(name));
/** Entries read as node logs (a `.txt` one only when its content turns out to be AMOS output). */
const isLogLike = (name: string) => !isMacJunk(name) && (isLog(name) || (isText(name) && !isMobatchResult(name)));
const count = (n: number) => n.toLocaleString('en-US');

function problemsOf(problems: readonly Problem[]): { problemCount: number; problems: ParseProblem[] } {
  return {
    problemCount: problems.length,
    problems: problems.slice(0, PROBLEMS_PER_FILE).map((p) => ({ line: p.source.line, reason: p.reason, command: p.command })),
  };
}

function fileReport(archive: string, file: string, partial: Partial<ParsedFile> = {}): ParsedFile {
  return { archive, file, node: null, siteId: null, outcome: 'ignored', alarms: 0, problemCount: 0, problems: [], reason: null, ...partial };
}

/** The archive's `.log` and `.txt` entries but mobatch_result.txt, for the progress count; 0 when the directory cannot be read (readArchive says why). */
async function logEntryCount(file: string): Promise<number> {
  try {
    const damaged = () => new Error('damaged');
    return zipLayout(await readZipFile(file, damaged), damaged).filter((e) => isLogLike(e.name)).length;
  } catch {
    return 0;
  }
}

/** Logs read before their rows are staged together: one inventory read per batch, and what the heap holds at most. */
export const BATCH_LOGS = 64;
/** A batch is staged sooner when its logs' text reaches this: a few large logs hold as much as many small ones. */
const BATCH_BYTES = 32_000_000;

/**
 * What is kept of a staged node until the swap: who it is, which log won, and what the swap must
 * know of a log that was cut short. Its rows are in the staging tables, not here.
 */
interface StagedNode {
  name: string;
  /** The number of the log its staged rows came from. */
  log: number;
  at: number;
  logsAt: string | null;
  unreachable: boolean;
  siteId: string | null;
  /** Only for a log that did not give its alarms or states whole (see gapsOf). */
  cut: { gaps: NodeGaps; file: string } | null;
}

export async function ingestArchives(db: Db, archives: readonly ArchiveInput[], options: IngestOptions): Promise<ParseReport> {
  // One connection for the whole parse: the staging tables are its own (docs/engines/amos.md#the-parse).
  return db.connection().execute(async (conn) => {
    const staging = await ParseStaging.open(conn);
    try {
      return await ingestInto(conn, staging, archives, options);
    } finally {
      await staging.close();
    }
  });
}

async function ingestInto(conn: Db, staging: ParseStaging, archives: readonly ArchiveInput[], options: IngestOptions): Promise<ParseReport> {
  const now = options.now ?? new Date();
  const progress = options.progress ?? (() => undefined);
  const batchLogs = Math.max(1, options.batchLogs ?? BATCH_LOGS);
  const results: Array<{ archive: string; entries: MobatchEntry[] }> = [];
  const files: ParsedFile[] = [];
  let entriesRead = 0;

  let total = 0;
  for (const archive of archives) total += await logEntryCount(archive.file);
  let done = 0;
  const readOptions = { defaultUtcOffsetMinutes: options.defaultUtcOffsetMinutes };

  // The node each staged log stands for, by lower-case name; the logs another log of the node replaced.
  const nodes = new Map<string, StagedNode>();
  const superseded: number[] = [];
  let logNumber = 0;
  let batch: LogRead[] = [];
  let batchBytes = 0;
  let nodesStaged = 0;
  const stage = async (prepared: PreparedNode): Promise<void> => {
    const key = prepared.row.node_name.toLowerCase();
    const previous = nodes.get(key);
    // The same node twice in one parse: the newer log (by its first header) wins; on a tie, the later file.
    if (previous && prepared.at < previous.at) return;
    if (previous) superseded.push(previous.log);
    const { row } = prepared;
    const cut = prepared.gaps.alarms === null && prepared.gaps.states === null ? null : { gaps: prepared.gaps, file: prepared.file };
    const siteId = row.site_id === null || row.site_id === undefined ? null : String(row.site_id);
    nodes.set(key, { name: row.node_name, log: prepared.log, at: prepared.at, logsAt: row.logs_at, unreachable: row.unreachable === 1, siteId, cut });
    await staging.add(row, prepared.rows());
  };
  /** Stages the batch's logs and writes them out: from here on the heap holds none of their rows. */
  const stageBatch = async (): Promise<void> => {
    if (batch.length === 0) return;
    const logs = batch;
    batch = [];
    batchBytes = 0;
    const inventory = await inventoryOf(
      conn,
      logs.map((l) => l.result.node),
    );
    await staging.inOneGo(async () => {
      for (const log of logs) await stage(prepareLog(log, inventory.get(log.result.node.toLowerCase()) ?? null, now, (logNumber += 1)));
    });
    nodesStaged += logs.length;
    await options.staged?.(nodesStaged, staging.rows);
  };

  // Logs of which nothing could be read, by the node their file names: a node known before is not left looking complete.
  const unreadable: UnreadableLog[] = [];
  const recordLog = async (archive: string, file: string, { result, droppedAttributeTechs }: KeptLog, bytes: number): Promise<void> => {
    const report = fileReport(archive, file, { node: result.node, alarms: result.alarms.length, ...problemsOf(result.problems) });
    files.push(report);
    if (!result.unreachable && result.blocks.length === 0) {
      // Nothing at all was read: the file is reported, and the node's previous results stay.
      report.outcome = 'failed';
      if (report.problemCount === 0) {
        report.problemCount = 1;
        report.problems = [{ line: 1, reason: 'no AMOS command output: no `<node>> <command>` prompt in the file', command: null }];
      }
      const first = report.problems[0]!;
      unreadable.push({ node: result.node, file, reason: `line ${first.line}: ${first.reason}` });
      return;
    }
    batch.push({ archive, file, result, droppedAttributeTechs, report });
    batchBytes += bytes;
    if (batch.length >= batchLogs || batchBytes >= BATCH_BYTES) await stageBatch();
  };

  for (const archive of archives) {
    let sawLogs = false;
    try {
      // The next log inflates (zlib's thread pool) while this one is parsed.
      const entries = readArchiveFiles(archive.file, {
        limits: ARCHIVE_LIMITS,
        subject: `The archive ${archive.name}`,
        maxFileBytes: MAX_LOG_BYTES,
        wanted: isRead,
      });
      for await (const entry of entries) {
        options.signal?.throwIfAborted();
        entriesRead += 1;
        if (!isRead(entry.name)) {
          // macOS metadata is no one's file; anything else the user zipped is told as not read.
          files.push(fileReport(archive.name, entry.name, isMacJunk(entry.name) ? {} : notRead(INGEST_MESSAGES.notRead)));
          continue;
        }
        if (isMobatchResult(entry.name)) {
          sawLogs = true;
          const text = entry.data === null ? null : entry.data.toString('utf8');
          const parsed = text === null ? null : parseMobatchResult(text, { archive: archive.name, file: entry.name });
          if (parsed) results.push({ archive: archive.name, entries: parsed.entries });
          files.push(fileReport(archive.name, entry.name, parsed ? problemsOf(parsed.problems) : tooLarge()));
          continue;
        }
        done += 1;
        progress(total > 0 ? Math.min(90, (done / total) * 90) : 0, `Parsing ${baseName(entry.name)} (${count(done)} / ${count(Math.max(total, done))})`);
        if (entry.data === null) {
          sawLogs ||= isLog(entry.name);
          files.push(fileReport(archive.name, entry.name, { outcome: isLog(entry.name) ? 'failed' : 'ignored', ...tooLarge() }));
          continue;
        }
        const read = readNodeLog(entry.data, archive.name, entry.name, readOptions);
        // A `.txt` is a log only when the parser found AMOS output in it (a prompt, or a command's table):
        // a site file, notes or a spreadsheet export is reported as not read, and names no node.
        if (!isLog(entry.name) && !read.result.unreachable && read.result.blocks.length === 0) {
          files.push(fileReport(archive.name, entry.name, notRead(INGEST_MESSAGES.notAmosText)));
          continue;
        }
        sawLogs = true;
        await recordLog(archive.name, entry.name, read, entry.data.length);
      }
    } catch (error) {
      if (error instanceof ZipReadError) throw new LogArchiveError(error.message);
      throw error;
    }
    if (!sawLogs) throw new LogArchiveError(INGEST_MESSAGES.noLogs(archive.name));
  }
  await stageBatch();

  // Nodes that mobatch_result.txt says were not reached, and that left no log of their own.
  const unreachableOnly = new Map<string, ResultRead>();
  for (const { archive, entries } of results) {
    for (const entry of entries) {
      const key = entry.node.toLowerCase();
      if (!entry.unreachable || nodes.has(key) || unreachableOnly.has(key)) continue;
      const reason = `${entry.status} (${baseName(entry.source.file)} line ${entry.source.line})`;
      const report = fileReport(archive, entry.source.file, { node: entry.node, outcome: 'unreachable', reason });
      unreachableOnly.set(key, { archive, entry, report });
      files.push(report);
    }
  }
  if (unreachableOnly.size > 0) {
    const inventory = await inventoryOf(
      conn,
      [...unreachableOnly.values()].map((r) => r.entry.node),
    );
    await staging.inOneGo(async () => {
      for (const read of unreachableOnly.values())
        await stage(prepareUnreachable(read, inventory.get(read.entry.node.toLowerCase()) ?? null, now, (logNumber += 1)));
    });
  }

  if (nodes.size === 0)
    throw new UnusableLogsError(
      INGEST_MESSAGES.nothingUsable(
        archives.map((a) => a.name),
        files,
      ),
      files,
    );

  progress(91, 'Saving');
  const counts: ParseCounts = {
    files: entriesRead,
    parsed: files.filter((f) => f.outcome === 'parsed').length,
    unreachable: files.filter((f) => f.outcome === 'unreachable').length,
    notInInventory: files.filter((f) => f.outcome === 'not in inventory').length,
    failed: files.filter((f) => f.outcome === 'failed').length,
    problems: files.reduce((sum, f) => sum + f.problemCount, 0),
  };
  let logsDate: string | null = null;
  for (const n of nodes.values()) if (n.logsAt !== null && (logsDate === null || n.logsAt > logsDate)) logsDate = n.logsAt;
  const parsedBy = await userName(conn, options.parsedBy);
  const report: Omit<ParseReport, 'id'> = { parsedAt: now.toISOString(), parsedBy, archives: archives.map((a) => a.name), logsDate, counts, files };

  const unread = unreadable.filter((u) => !nodes.has(u.node.toLowerCase()));
  const id = await swapIn(conn, staging, report, [...nodes.values()], superseded, options, unread);
  await refreshStatistics(conn, [...NODE_ROW_TABLES, 'monitoring_nodes']);
  progress(100, 'Saved');
  return { id, ...report };
}

/** An entry that is not read: one problem saying why, so the report lists it and its count shows it. */
function notRead(reason: string): Pick<ParsedFile, 'problemCount' | 'problems'> {
  return { problemCount: 1, problems: [{ line: 1, reason, command: null }] };
}

function tooLarge(): Pick<ParsedFile, 'problemCount' | 'problems'> {
  return { problemCount: 1, problems: [{ line: 1, reason: `the file is larger than ${count(MAX_LOG_BYTES)} bytes; it was not read`, command: null }] };
}

async function userName(db: Db, id: number | null): Promise<string | null> {
  if (id === null) return null;
  const row = await db.selectFrom('users').select(['firstname', 'lastname']).where('id', '=', id).executeTakeFirst();
  return row ? `${row.firstname} ${row.lastname}`.trim() : null;
}

/** The inventory's nodes of these names (any case), with their cells, by lower-case name. */
async function inventoryOf(db: Db, names: readonly string[]): Promise<Map<string, InventoryNode>> {
  const out = new Map<string, InventoryNode>();
  const wanted = [...new Set(names.map((n) => n.toLowerCase()))];
  for (let i = 0; i < wanted.length; i += NAME_CHUNK) {
    const chunk = wanted.slice(i, i + NAME_CHUNK);
    const rows = await db
      .selectFrom('network_nodes')
      .select(['name', 'site_id', 'technology'])
      .where(sql<string>`lower(name)`, 'in', chunk)
      .execute();
    for (const r of rows) out.set(r.name.toLowerCase(), { name: r.name, siteId: r.site_id, technology: r.technology, cells: [] });
  }
  const found = [...out.values()].map((n) => n.name);
  for (let i = 0; i < found.length; i += NAME_CHUNK) {
    const cells = await db
      .selectFrom('network_cells')
      .select(['name', 'node_name', 'tech', 'pci', 'psc', 'tac', 'nr_tac', 'lac', 'channel', 'max_tx_power'])
      .where('node_name', 'in', found.slice(i, i + NAME_CHUNK))
      .execute();
    for (const c of cells) {
      out.get(c.node_name.toLowerCase())?.cells.push({
        name: c.name,
        tech: c.tech,
        pci: c.pci,
        psc: c.psc,
        tac: c.tac,
        nrTac: c.nr_tac,
        lac: c.lac,
        channel: c.channel,
        maxTxPower: c.max_tx_power,
      });
    }
  }
  return out;
}

// ---- Rows ----

const TECH_ORDER = ['2G', '3G', '4G', '5G', 'NB-IoT'];
const techText = (techs: Iterable<string>) => {
  const set = new Set(techs);
  const ordered = TECH_ORDER.filter((t) => set.has(t));
  return ordered.length > 0 ? ordered.join('/') : null;
};

/** The node's technology: its inventory cells', else the inventory's own, else what its log showed. */
function nodeTech(known: InventoryNode | null, log: LogRead | null): string | null {
  if (known) {
    const fromCells = techText(known.cells.map((c) => c.tech));
    if (fromCells) return fromCells;
    if (known.technology && known.technology !== 'multi') return known.technology;
  }
  if (!log) return null;
  const seen: MoTech[] = [...log.droppedAttributeTechs];
  const { alarms, states, attributes } = log.result;
  for (const rows of [alarms, states, attributes]) for (const r of rows) if (r.tech !== 'site') seen.push(r.tech);
  return techText(seen) ?? known?.technology ?? null;
}

/** Why a log's alarm list, or its states, is not the node's whole answer (see gapsOf); null where it is. */
interface NodeGaps {
  alarms: string | null;
  states: string | null;
}

interface PreparedNode {
  /** The log's number in this parse: its staged rows carry it until the swap. */
  log: number;
  /** Instant of the log's first header (ms), for "the newer log wins"; -Infinity when unknown. */
  at: number;
  row: Row & { node_name: string; logs_at: string | null; unreachable: number };
  /** Tables its log did not give whole (see gapsOf): their previous rows are kept, marked stale. */
  gaps: NodeGaps;
  /** The log's file (for the comments of kept rows). */
  file: string;
  /** The rows of the node's tables, built as they are staged (a node that loses to a newer log builds none). */
  rows: () => StagedRows;
}

const NO_ROWS: StagedRows = { alarms: [], states: [], attributes: [], ret: [], findings: [] };

const source = (archive: string, file: string, line: number) => ({ archive, file, line });

function identityOf(name: string, known: InventoryNode | null): { name: string; siteId: string | null; inInventory: number } {
  return known ? { name: known.name, siteId: known.siteId, inInventory: 1 } : { name, siteId: defaultSiteId(name), inInventory: 0 };
}

function nodeRow(
  id: { name: string; siteId: string | null; inInventory: number },
  tech: string | null,
  logsAt: string | null,
  where: { archive: string; file: string; line: number },
  unreachableReason: string | null,
  problems: number,
  evaluation: NodeEvaluation,
  now: Date,
): PreparedNode['row'] {
  return {
    node_name: id.name,
    site_id: id.siteId,
    in_inventory: id.inInventory,
    tech,
    logs_at: logsAt,
    ...where,
    unreachable: unreachableReason === null ? 0 : 1,
    unreachable_reason: unreachableReason,
    problems,
    alarm_status: evaluation.alarmStatus,
    alarm_count: evaluation.alarmCount,
    alarm_comments: evaluation.alarmComments,
    radio_status: evaluation.radioStatus,
    radio_comments: evaluation.radioComments,
    core_status: evaluation.coreStatus,
    core_comments: evaluation.coreComments,
    updated_at: now.toISOString(),
  };
}

/**
 * Why the log's alarm list, or its states, cannot be taken as the node's whole answer: the first own
 * `alt` (or `st`) block that was not read whole (cut off, a count that disagrees, junk inside), or null.
 * A log cut inside its alarm table before any `st` printed lost its states too (they come after).
 */
function gapsOf(r: NodeLogResult): NodeGaps {
  const node = r.node.toLowerCase();
  const own = r.blocks.filter((b) => b.node.toLowerCase() === node);
  const first = (family: string) => own.find((b) => b.family === family && b.incomplete !== null)?.incomplete ?? null;
  const alarms = first('alt');
  const cutBeforeStates = alarms !== null && !own.some((b) => b.family === 'st');
  return { alarms, states: first('st') ?? (cutBeforeStates ? alarms : null) };
}

function prepareLog(log: LogRead, known: InventoryNode | null, now: Date, logNumber: number): PreparedNode {
  const r = log.result;
  const id = identityOf(r.node, known);
  const inventory: InventoryFacts | null = known ? { cells: known.cells } : null;
  const evaluation = evaluateNode(r, inventory);
  const gaps = r.unreachable ? { alarms: null, states: null } : gapsOf(r);
  if (gaps.alarms !== null) {
    evaluation.alarmStatus = INCOMPLETE_LOG;
    evaluation.alarmComments = INGEST_MESSAGES.incompleteAlarms(log.file, gaps.alarms, false);
  }
  if (gaps.states !== null) {
    evaluation.radioStatus = INCOMPLETE_LOG;
    evaluation.coreStatus = INCOMPLETE_LOG;
    evaluation.radioComments = INGEST_MESSAGES.incompleteStates(log.file, gaps.states);
    evaluation.coreComments = evaluation.radioComments;
  }
  log.report.node = id.name;
  log.report.siteId = id.siteId;
  log.report.outcome = r.unreachable ? 'unreachable' : id.inInventory ? 'parsed' : 'not in inventory';
  log.report.reason = r.unreachable ? r.unreachableReason : (gaps.alarms ?? gaps.states) !== null ? `${INCOMPLETE_LOG}: ${gaps.alarms ?? gaps.states}` : null;
  const at = r.header?.at ?? null;
  const firstLine = r.blocks[0]?.source.line ?? 1;
  const row = nodeRow(
    id,
    nodeTech(known, log),
    at ? at.toISOString() : null,
    source(log.archive, log.file, firstLine),
    r.unreachable ? (r.unreachableReason ?? 'unreachable') : null,
    r.problems.length,
    evaluation,
    now,
  );
  row.parse_id = logNumber;
  const node = id.name;
  if (r.unreachable) return { log: logNumber, at: at?.getTime() ?? -Infinity, row, rows: () => NO_ROWS, gaps, file: log.file };
  // The columns every row of an MO shares; each table's own are set on the same object (no spread copies).
  const facts = (x: { mo: string; moClass: string | null; tech: string; cell: string | null; source: { line: number } }): Row => ({
    node_name: node,
    parse_id: logNumber,
    mo: x.mo,
    mo_class: x.moClass,
    tech: x.tech,
    cell: x.cell,
    archive: log.archive,
    file: log.file,
    line: x.source.line,
  });
  return {
    log: logNumber,
    at: at?.getTime() ?? -Infinity,
    row,
    gaps,
    file: log.file,
    rows: () => ({
      alarms: r.alarms.map((a) => {
        const alarm = facts(a);
        alarm.site_id = id.siteId;
        alarm.alarm_at = a.at ? a.at.toISOString() : null;
        alarm.alarm_time = a.time;
        alarm.time_basis = a.timeBasis;
        alarm.severity = a.severity;
        alarm.specific_problem = a.specificProblem;
        alarm.info = a.additionalInfo;
        alarm.node_acknowledged = a.acknowledged ? 1 : 0;
        alarm.node_operator = a.operator;
        alarm.alarm_key = alarmKey(node, a);
        alarm.stale = gaps.alarms === null ? 0 : 1;
        return alarm;
      }),
      states: r.states.map((s) => {
        const state = facts(s);
        state.adm_state = s.admState;
        state.op_state = s.opState;
        state.link = s.link;
        state.stale = gaps.states === null ? 0 : 1;
        return state;
      }),
      attributes: r.attributes.map((a) => {
        const attribute = facts(a);
        attribute.attribute = a.attribute;
        attribute.value = attributeValue(a.attribute, a.value, a.items);
        return attribute;
      }),
      ret: r.ret.map((t) => ({
        node_name: node,
        parse_id: logNumber,
        mo: t.mo,
        antenna_unit_group: t.antennaUnitGroup,
        antenna_near_unit: t.antennaNearUnit,
        ret_sub_unit: t.retSubUnit,
        electrical_tilt: t.electricalAntennaTilt,
        max_tilt: t.maxTilt,
        min_tilt: t.minTilt,
        operational_state: t.operationalState,
        user_label: t.userLabel,
        serial_number: t.serialNumber,
        archive: log.archive,
        file: log.file,
        line: t.source.line,
      })),
      findings: evaluation.findings.map((f) => {
        const finding = facts(f);
        finding.area = f.area;
        finding.check_name = f.checkName;
        finding.expected = f.expected;
        finding.actual = f.actual;
        finding.status = f.status;
        finding.comment = f.comment;
        return finding;
      }),
    }),
  };
}

/** What identifies an alarm across parses (acknowledgements follow it). */
const alarmKey = (node: string, alarm: { mo: string; specificProblem: string }) => `${node}|${alarm.mo}|${alarm.specificProblem}`;

/** `[3] =` with its `>>>` items: the items follow, so the stored value says everything the log did. */
function attributeValue(attribute: string, value: string, items: ReadonlyArray<{ name: string; value: string }>): string {
  if (items.length === 0) return value;
  const shown = items.map((i) => (i.name === attribute ? i.value : `${i.name} = ${i.value}`)).join('; ');
  return value ? `${value} ${shown}` : shown;
}

function prepareUnreachable(read: ResultRead, known: InventoryNode | null, now: Date, logNumber: number): PreparedNode {
  const id = identityOf(read.entry.node, known);
  const reason = read.report.reason ?? read.entry.status;
  read.report.node = id.name;
  read.report.siteId = id.siteId;
  const evaluation: NodeEvaluation = {
    alarmStatus: 'N/A',
    alarmCount: 0,
    alarmComments: `Node unreachable: ${reason}`,
    radioStatus: 'N/A',
    radioComments: `Node unreachable: ${reason}`,
    coreStatus: 'N/A',
    coreComments: `Node unreachable: ${reason}`,
    findings: [],
  };
  const row = nodeRow(id, nodeTech(known, null), null, source(read.archive, read.entry.source.file, read.entry.source.line), reason, 0, evaluation, now);
  row.parse_id = logNumber;
  // No log at all: any log of the same node in this parse says more, whatever its date.
  return { log: logNumber, at: -Infinity, row, rows: () => NO_ROWS, gaps: { alarms: null, states: null }, file: read.entry.source.file };
}

// ---- Writing ----

/** A node log of which nothing could be read: the node its file names, and why. */
interface UnreadableLog {
  node: string;
  file: string;
  reason: string;
}

/**
 * The swap: one transaction on the staging connection stores the parse and replaces each staged node's
 * rows with its staged ones. Everything it reads of the staged logs comes from the staging tables or
 * from the few facts kept per node ({@link StagedNode}), so it holds no more than a chunk of them either.
 */
async function swapIn(
  conn: Db,
  staging: ParseStaging,
  report: Omit<ParseReport, 'id'>,
  nodes: readonly StagedNode[],
  superseded: readonly number[],
  options: IngestOptions,
  unreadable: readonly UnreadableLog[] = [],
): Promise<number> {
  // The writers run on the connection, not in the transaction: everything staged is written first.
  await staging.flush();
  return conn.transaction().execute(async (trx) => {
    // Logs another log of their node replaced leave the staging area before anything reads it.
    await staging.discard(trx, superseded);
    const { id } = await trx
      .insertInto('monitoring_parses')
      .values({
        parsed_at: report.parsedAt,
        parsed_by: options.parsedBy,
        job_id: options.jobId,
        archives: JSON.stringify(report.archives),
        logs_date: report.logsDate,
        files: report.counts.files,
        parsed: report.counts.parsed,
        unreachable: report.counts.unreachable,
        not_in_inventory: report.counts.notInInventory,
        failed: report.counts.failed,
        problems: report.counts.problems,
        report: '{}',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const parseId = Number(id);
    await trx
      .updateTable('monitoring_parses')
      .set({ report: JSON.stringify({ id: parseId, ...report } satisfies ParseReport) })
      .where('id', '=', parseId)
      .execute();

    // A node is one node whatever the case of its name: its rows may be stored under another spelling
    // (a log read before the node entered the inventory names it as its prompt did).
    const stored = await storedNamesOf(
      trx,
      nodes.map((n) => n.name),
    );
    // Before the rows are replaced: what the node's previous log showed is gone after (issue 47).
    await recordStagedAlarmChanges(trx, staging, nodes, stored, parseId);
    await followRenames(trx, nodes, stored);
    const kept = await keepWhatWasKnown(trx, staging, nodes, stored);
    for (const table of [...NODE_ROW_TABLES, 'monitoring_nodes'] as const) {
      const names = nodes.flatMap((n) => (kept.get(n)?.has(table as NodeRowTable) ? [] : [n.name, ...(stored.get(n.name.toLowerCase()) ?? [])]));
      const unique = [...new Set(names)];
      for (let i = 0; i < unique.length; i += NAME_CHUNK) {
        await sql`delete from ${sql.table(table)} where ${scopedTo(table)} and node_name in (${sql.join(unique.slice(i, i + NAME_CHUNK))})`.execute(trx);
      }
    }
    // Console acknowledgements follow the alarm: one whose alarm the node's new log no longer shows has
    // ceased and goes. An unreachable node says nothing about its alarms, nor does a log cut inside its
    // alarm table, so their acknowledgements stay.
    await staging.forgetCeasedAcks(
      trx,
      nodes.filter((n) => !n.unreachable && n.cut?.gaps.alarms == null).map((n) => n.name),
    );
    await staging.copyInto(trx, parseId);
    await markUnreadable(trx, unreadable);
    await refreshSiteStatuses(trx);
    return parseId;
  });
}

/** Nodes whose staged alarms are read back at once for the alarm changes. */
const CHANGES_CHUNK = 200;

/** The alarm changes of each node (recordAlarmChanges), fed a chunk of nodes at a time with their staged alarms. */
async function recordStagedAlarmChanges(
  trx: Db,
  staging: ParseStaging,
  nodes: readonly StagedNode[],
  stored: ReadonlyMap<string, readonly string[]>,
  parseId: number,
): Promise<void> {
  // Only nodes that had a log before can have changes: a first parse reads nothing back.
  const compared = nodes.filter((n) => !n.unreachable && n.cut?.gaps.alarms == null && (stored.get(n.name.toLowerCase())?.length ?? 0) > 0);
  for (let i = 0; i < compared.length; i += CHANGES_CHUNK) {
    const chunk = compared.slice(i, i + CHANGES_CHUNK);
    const alarms = await staging.alarmsOf(
      trx,
      chunk.map((n) => n.log),
    );
    const changed: ChangedNode[] = chunk.map((n) => ({
      row: { node_name: n.name, logs_at: n.logsAt, unreachable: 0, site_id: n.siteId },
      gaps: { alarms: null },
      rows: () => ({ alarms: alarms.get(n.log) ?? [] }),
    }));
    await recordAlarmChanges(trx, changed, stored, parseId);
  }
}

/**
 * A node known from an earlier log whose new log could not be read at all (junk, no prompt): its rows
 * stay, its alarms and states are marked stale, and its statuses say 'Incomplete log' with the reason
 * until a log of it is read. A node never seen before has nothing to keep and stays unknown.
 */
async function markUnreadable(trx: Db, logs: readonly UnreadableLog[]): Promise<void> {
  if (logs.length === 0) return;
  const stored = await storedNamesOf(
    trx,
    logs.map((l) => l.node),
  );
  for (const log of logs) {
    const names = stored.get(log.node.toLowerCase()) ?? [];
    if (names.length === 0) continue;
    const comment = INGEST_MESSAGES.unreadable(log.file, log.reason);
    await trx
      .updateTable('monitoring_nodes')
      .set({
        alarm_status: INCOMPLETE_LOG,
        alarm_comments: comment,
        radio_status: INCOMPLETE_LOG,
        radio_comments: comment,
        core_status: INCOMPLETE_LOG,
        core_comments: comment,
      })
      .where('node_name', 'in', names)
      .where('unreachable', '=', 0)
      .execute();
    await trx.updateTable('monitoring_alarms').set({ stale: 1 }).where('node_name', 'in', names).execute();
    await trx.updateTable('monitoring_states').set({ stale: 1 }).where('node_name', 'in', names).execute();
  }
}

/** The names the stored rows give these nodes, any case, by lower-case name. */
async function storedNamesOf(trx: Db, names: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const wanted = [...new Set(names.map((n) => n.toLowerCase()))];
  for (let i = 0; i < wanted.length; i += NAME_CHUNK) {
    const rows = await trx
      .selectFrom('monitoring_nodes')
      .select('node_name')
      .where(sql<string>`lower(node_name)`, 'in', wanted.slice(i, i + NAME_CHUNK))
      .execute();
    for (const r of rows) {
      const key = r.node_name.toLowerCase();
      out.set(key, [...(out.get(key) ?? []), r.node_name]);
    }
  }
  return out;
}

/**
 * Console acknowledgements of a node stored under another spelling of its name (`TEL_AVIV` from its
 * prompt, before the inventory knew it as `tel_aviv`) move to the name it has now: their keys start with
 * the node's name, and the alarms they follow are written under the new one.
 */
async function followRenames(trx: Db, nodes: readonly StagedNode[], stored: ReadonlyMap<string, string[]>): Promise<void> {
  for (const node of nodes) {
    const name = node.name;
    for (const old of stored.get(name.toLowerCase()) ?? []) {
      if (old === name) continue;
      await sql`update monitoring_alarm_acks set alarm_key = ${name} || substr(alarm_key, ${old.length + 1}), node_name = ${name}
        where ${scopedTo('monitoring_alarm_acks')} and node_name = ${old}`.execute(trx);
    }
  }
}

/**
 * Never lose what was known: a node whose new log stopped inside its alarm table (or an `st` table)
 * keeps its previous alarms (or states and the findings made of them), moved to its name and marked
 * stale, and its status says why; what the cut log printed replaces nothing. When nothing was known
 * before, what the log did print is stored, marked stale as well. Answers, per node, the tables kept.
 */
async function keepWhatWasKnown(
  trx: Db,
  staging: ParseStaging,
  nodes: readonly StagedNode[],
  stored: ReadonlyMap<string, string[]>,
): Promise<Map<StagedNode, Set<NodeRowTable>>> {
  const kept = new Map<StagedNode, Set<NodeRowTable>>();
  const countOf = async (table: 'monitoring_alarms' | 'monitoring_states', names: readonly string[]) =>
    Number(
      (
        await trx
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('node_name', 'in', names)
          .executeTakeFirstOrThrow()
      ).n,
    );
  for (const node of nodes) {
    if (node.cut === null) continue;
    const { gaps, file } = node.cut;
    const name = node.name;
    const old = stored.get(name.toLowerCase()) ?? [];
    if (old.length === 0) continue;
    const tables = new Set<NodeRowTable>();
    if (gaps.alarms !== null) {
      const count = await countOf('monitoring_alarms', old);
      if (count > 0) {
        tables.add('monitoring_alarms');
        await trx.updateTable('monitoring_alarms').set({ node_name: name, site_id: node.siteId, stale: 1 }).where('node_name', 'in', old).execute();
        await staging.updateNode(trx, node.log, { alarm_count: count, alarm_comments: INGEST_MESSAGES.incompleteAlarms(file, gaps.alarms, true) });
      }
    }
    if (gaps.states !== null && (await countOf('monitoring_states', old)) > 0) {
      tables.add('monitoring_states');
      tables.add('monitoring_findings');
      await trx.updateTable('monitoring_states').set({ node_name: name, stale: 1 }).where('node_name', 'in', old).execute();
      await trx.updateTable('monitoring_findings').set({ node_name: name }).where('node_name', 'in', old).execute();
    }
    if (tables.size > 0) {
      // What the cut log printed of those tables replaces nothing: its staged rows go.
      await staging.discard(trx, [node.log], [...tables]);
      kept.set(node, tables);
    }
  }
  return kept;
}
