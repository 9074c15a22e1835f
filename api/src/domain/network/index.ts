/** Network inventory ("the dump", docs/engines/network.md): pure parsers, the model mapper and a demo generator. */
export { NetworkParseError, NetworkOptionError } from './errors';
export type { Attributes, MoRecord, Chunk, ChunkSource, DnComponent } from './records';
export { splitDn } from './records';
export { parseBulkCm } from './bulkcm';
export { parseCmedit } from './cmedit';
export { parseNetworkDump, importNetworkDump } from './dump';
export type { DumpFormat, DumpOptions } from './dump';
export { NetworkMapper, mapNetwork } from './mapper';
export type { NetworkSink, MapOptions, MapResult } from './mapper';
export {
  compileSiteRule,
  defaultSiteId,
  siteIdBy,
  siteWarnings,
  DEFAULT_SITE_RULE,
  DEFAULT_SITE_RULE_SOURCE,
  MAX_SITE_RULE_LENGTH,
  MAX_NODES_PER_SITE,
} from './site-rule';
export type { SiteRule, SiteSummary, UnmatchedNames } from './site-rule';
export {
  CELL_TECHS,
  EXTERNAL_CELL_KINDS,
  NODE_TECHNOLOGIES,
  RATS,
  RELATION_KINDS,
  COORDINATE_ENCODINGS,
  emptyCounts,
  totalOf,
  bandOf,
  decodeCoordinates,
  encodeCoordinates,
  assertCoordinateEncoding,
  formatPlmn,
} from './model';
export type {
  CellTech,
  ExternalCellKind,
  NodeTechnology,
  Rat,
  RelationKind,
  Site,
  NetworkNode,
  Cell,
  ExternalCell,
  Relation,
  NetworkCounts,
  CoordinateEncoding,
} from './model';
