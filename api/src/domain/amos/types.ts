/**
 * Shapes produced by the MoBatch / AMOS log parser (docs/engines/amos.md). Everything found keeps its source:
 * the archive (when the caller gives one), the file and the 1-based line number in that file.
 */

/** Where a log came from. The archive name is the caller's (the uploaded .zip); the parser only carries it. */
export interface LogSource {
  archive?: string;
  file: string;
}

/** Where one finding came from. */
export interface SourceRef extends LogSource {
  line: number;
}

export type Severity = 'Critical' | 'Major' | 'Minor' | 'Warning';
export type SeverityCode = 'C' | 'M' | 'm' | 'w';

/** Technology of an MO, from its cell class; 'site' when no cell class is named. */
export type MoTech = '2G' | '3G' | '4G' | '5G' | 'NB-IoT' | 'site';

/** Transport/link interface of a termination point MO (for the core status). */
export type LinkInterface = 'S1' | 'X2' | 'Xn' | 'NG' | 'F1' | 'Iub' | 'Abis';

/** Wall-clock basis of a table's times: the `Date & Time (UTC)` or `(Local)` column header. */
export type TimeBasis = 'UTC' | 'Local';

/** The line under each prompt: `YYMMDD-HH:MM:SS[±hhmm] <ip> <version> <model> stopfile=…`. */
export interface BlockHeader {
  /**
   * The instant, when it can be known: with a zone offset in the header, or with the caller's
   * `defaultUtcOffsetMinutes`. Without either, the wall time is read as if it were UTC (and `zone` is null).
   */
  at: Date | null;
  /** The header's own wall time, `YYYY-MM-DD HH:MM:SS`. */
  local: string;
  /** `+hhmm` / `-hhmm` as written, or null when the header has none. */
  zone: string | null;
  ip: string;
  version: string | null;
  model: string | null;
  stopfile: string | null;
}

/** `Problem.kind` says what went wrong; `reason` says it in words, with the numbers. */
export type ProblemKind =
  /** Bytes that are not text (NUL, control characters, undecodable bytes): skipped. */
  | 'binary'
  /** A block ended (next prompt or end of file) before its table did. */
  | 'truncated'
  /** A footer total (`>>> Total: N Alarms …`, `Total: N MOs`, `[n] =`) disagrees with the rows read. */
  | 'count-mismatch'
  /** A line inside a table that is not a row of it. */
  | 'unparsed-line'
  /** A prompt of another node inside this node's log. */
  | 'foreign-node'
  /** A result line (mobatch_result.txt) that is not `<status> <duration> <node>`. */
  | 'unparsed-result'
  /** A family parser failed on a block; the block is kept raw. */
  | 'internal';

export interface Problem {
  kind: ProblemKind;
  reason: string;
  /** The prompt command of the block it was found in, when inside one. */
  command: string | null;
  source: SourceRef;
}

interface Found {
  /** Node of the prompt the row was printed under. */
  node: string;
  /** The prompt command (`alt`, `st cell`, `hget retsubunit …`). */
  command: string;
  source: SourceRef;
}

/** MO facts shared by alarms, states and attributes. */
export interface MoFacts {
  /** The MO as printed (relative to ManagedElement in most outputs). */
  mo: string;
  /** Class of its last RDN (`EUtranCellFDD`), or null when the MO text has no `Class=id` form. */
  moClass: string | null;
  /** Technology from the deepest RDN with a cell class (EUtranCell* → 4G …), else 'site'. */
  tech: MoTech;
  /** Id of that cell RDN (`EUtranCellFDD=LX0001_1` → `LX0001_1`), else null. */
  cell: string | null;
}

/** One row of an `alt` / `altk` table. */
export interface Alarm extends Found, MoFacts {
  /** Time as printed, `YYYY-MM-DD HH:MM:SS`. */
  time: string;
  timeBasis: TimeBasis;
  /** The instant: UTC tables as UTC; Local tables with the block header's zone (or the default offset). */
  at: Date | null;
  severity: Severity;
  severityCode: SeverityCode;
  specificProblem: string;
  /** The text in parentheses after the MO (Cause/AdditionalInfo), without the outer parentheses. */
  additionalInfo: string;
  /** True for rows of the ACKNOWLEDGED ALARMS table. */
  acknowledged: boolean;
  /** The Operator column of the acknowledged table. */
  operator: string | null;
}

/** One alarm row of an `lga` alarm log; `*` in the severity column marks a cease. */
export interface AlarmLogEntry extends Found, MoFacts {
  time: string;
  timeBasis: TimeBasis;
  at: Date | null;
  /** Log entry type (`AL`), or null in logs without a Type column. */
  type: string | null;
  ceased: boolean;
  /** Null for a cease. */
  severity: Severity | null;
  specificProblem: string;
  additionalInfo: string;
}

/** One row of an `st` table: `Proxy  Adm State  Op. State  MO`. */
export interface MoState extends Found, MoFacts {
  proxy: number | null;
  /** `LOCKED` / `UNLOCKED` / `SHUTTINGDOWN`, or null when the MO has no administrative state. */
  admState: string | null;
  admCode: number | null;
  /** `ENABLED` / `DISABLED`, or null when not printed. */
  opState: string | null;
  opCode: number | null;
  /** Interface of a termination point / link MO (TermPointToMme → S1 …), else null. */
  link: LinkInterface | null;
}

/** One element of a multi-valued attribute (`>>> attr = value`, `>>> 1.field = value`). */
export interface AttributeItem {
  name: string;
  value: string;
}

/** One attribute value from `get` (MO Attribute Value) or `hget` (one column of a row). */
export interface MoAttribute extends Found, MoFacts {
  attribute: string;
  /** The value as printed (`[3] =` for arrays, `1 (ENABLED)` for enums). */
  value: string;
  /** `[n]` of an array value, when printed. */
  declaredItems: number | null;
  /** The `>>>` continuation lines. */
  items: AttributeItem[];
}

/** A RetSubUnit as read from `hget`/`get` rows. Tilts are in 0.1° on the node; both forms are given. */
export interface RetRow {
  node: string;
  mo: string;
  /** `AntennaUnitGroup=1,AntennaNearUnit=1,RetSubUnit=1` → `1/1/1` parts, when present. */
  antennaUnitGroup: string | null;
  antennaNearUnit: string | null;
  retSubUnit: string | null;
  electricalAntennaTilt: number | null;
  tiltDegrees: number | null;
  maxTilt: number | null;
  maxTiltDegrees: number | null;
  minTilt: number | null;
  minTiltDegrees: number | null;
  operationalState: string | null;
  userLabel: string | null;
  serialNumber: string | null;
  source: SourceRef;
}

/** One configuration version of a `cvls` listing. */
export interface CvEntry {
  id: number;
  name: string;
  /** `YYYY-MM-DD HH:MM` as printed. */
  created: string;
  /** The rest of the row as printed (upgrade package, release, type, operator, comment…). */
  details: string;
  source: SourceRef;
}

export interface CvListing {
  node: string;
  command: string;
  /** `Key: value` lines (`Executing`, `Loaded`, `Startable`, `Rollback status`…). */
  summary: Record<string, string>;
  entries: CvEntry[];
  source: SourceRef;
}

/** What `lt all` said about the MO tree it loaded. */
export interface MoTreeSummary {
  node: string;
  command: string;
  /** The last MO count printed (`Total: N MOs`, `Loaded N MOs`), or null. */
  mos: number | null;
  /** The block's non-blank lines (they are few). */
  lines: string[];
  source: SourceRef;
}

/** A block kept as printed: an unknown command, or a known one that yielded nothing. */
export interface RawBlock {
  node: string;
  command: string;
  lines: string[];
  /** Lines left out beyond `rawLineLimit`. */
  omittedLines: number;
  source: SourceRef;
}

/** A command block: its prompt line and what was made of it. */
export interface BlockSummary {
  command: string;
  family: CommandFamily;
  node: string;
  header: BlockHeader | null;
  /** Physical lines of the block, prompt included. */
  lineCount: number;
  source: SourceRef;
  /**
   * Why its output is not the whole answer (`line 14: alarm table without its >>> Total footer: …`):
   * cut short, a count that disagrees, binary junk or rows that are not rows inside it. Null when read whole.
   */
  incomplete: string | null;
}

export type CommandFamily = 'alt' | 'lga' | 'st' | 'get' | 'hget' | 'cvls' | 'lt' | 'other';

export interface NodeLogResult {
  /** Node of the first prompt; the file name without `.log` when the log has none. */
  node: string;
  source: LogSource;
  /** The first block header of the log. */
  header: BlockHeader | null;
  /** The log says the node could not be reached (`Checking ip contact...Not OK`). */
  unreachable: boolean;
  /** The line that said so. */
  unreachableReason: string | null;
  blocks: BlockSummary[];
  alarms: Alarm[];
  alarmLog: AlarmLogEntry[];
  states: MoState[];
  attributes: MoAttribute[];
  ret: RetRow[];
  cvs: CvListing[];
  moTrees: MoTreeSummary[];
  raw: RawBlock[];
  problems: Problem[];
  /**
   * With {@link ParseOptions.keepAttributes}: the technologies (site level left out) of the MOs whose
   * values were left out, for the log's own node only. Empty without it.
   */
  skippedAttributeTechs: MoTech[];
}

export interface ParseOptions {
  /** Offset used for `Local` times and headers without a zone; when absent, such times are read as UTC. */
  defaultUtcOffsetMinutes?: number;
  /** Lines kept per raw block (default 10,000); the rest are counted in `omittedLines`. */
  rawLineLimit?: number;
  /**
   * The only attributes whose `get`/`hget` values are returned. Other values are still read and checked
   * (footer counts, `[n] =` items, rows that are not rows) but not built, and the technologies of their
   * MOs land in {@link NodeLogResult.skippedAttributeTechs}. A caller that stores a few parameters (the
   * parse job) so skips the objects of the thousands it would drop: relation and term point tables.
   * RetSubUnit values always reach {@link NodeLogResult.ret}.
   */
  keepAttributes?: ReadonlySet<string>;
}

/** One line of `mobatch_result.txt`. */
export interface MobatchEntry {
  node: string;
  /** As printed: `OK`, `no contact`, `timeout` … */
  status: string;
  /** Status is `OK`. */
  ok: boolean;
  /** The status says the node was not reached (`no contact`, `no ip contact`, `unreachable`). */
  unreachable: boolean;
  durationText: string;
  durationSeconds: number;
  source: SourceRef;
}

export interface MobatchResult {
  entries: MobatchEntry[];
  problems: Problem[];
}
