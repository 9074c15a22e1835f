/**
 * Ericsson MoBatch / AMOS logs (docs/engines/amos.md): pure parsers of node logs (`<node>.log`) and of
 * `mobatch_result.txt`. No I/O; the caller reads the archive and passes each file's text.
 */
export { parseNodeLog, nodeFromFileName } from './node-log';
export { parseMobatchResult } from './mobatch';
export { parseHeaderLine } from './header';
export { decodeLogBytes } from './text';
export { parsePrompt, familyOf } from './blocks';
export { moFacts, techOfClass, linkOf } from './mo';
export { retRows } from './ret';
export type {
  Alarm,
  AlarmLogEntry,
  AttributeItem,
  BlockHeader,
  BlockSummary,
  CommandFamily,
  CvEntry,
  CvListing,
  LinkInterface,
  LogSource,
  MobatchEntry,
  MobatchResult,
  MoAttribute,
  MoFacts,
  MoState,
  MoTech,
  MoTreeSummary,
  NodeLogResult,
  ParseOptions,
  Problem,
  ProblemKind,
  RawBlock,
  RetRow,
  Severity,
  SeverityCode,
  SourceRef,
  TimeBasis,
} from './types';
