/** The demo MoBatch logs' inventory (nodes and cells), options, and what the generator reports it wrote. */

export const DEMO_LOGS_FILE = 'demo-mobatch-logs.zip';
export const MOBATCH_RESULT_FILE = 'mobatch_result.txt';

export type DemoCellTech = '2G' | '3G' | '4G' | '5G' | 'NB-IoT';

/** A cell as the logs print it: the MO relative to ManagedElement and the inventory's values. */
export interface DemoLogCell {
  name: string;
  tech: DemoCellTech;
  /** `ENodeBFunction=1,EUtranCellFDD=LX0001_L800_1` */
  mo: string;
  pci: number | null;
  tac: number | null;
  nrTac: number | null;
  channel: number | null;
  psc: number | null;
  /** 0.1 dBm. */
  cpichPower: number | null;
  /** 0.1 dBm. */
  maxTxPower: number | null;
}

export interface DemoLogNode {
  name: string;
  siteId: string | null;
  /** RadioNode, RNC or BSC (network_nodes.type). */
  type: string | null;
  cells: DemoLogCell[];
}

/** Extra rows per node beyond the demo's (the bench scales the logs up with these). */
export interface DemoLogScale {
  /** Alarms added to every reachable node's UNACKNOWLEDGED table. */
  alarms?: number;
  /** X2 term points of every RadioNode (the demo has 2 to 5). */
  termPoints?: number;
  /** EUtranCellRelations per 4G cell, printed by an extra `get EUtranCellRelation` (the demo has none). */
  relations?: number;
}

export interface DemoLogOptions {
  /** PRNG seed (default 1). */
  seed?: number;
  /** When the logs were taken: the last node's header is a little before this (default: the current time). */
  now?: Date;
  scale?: DemoLogScale;
}

export type DemoSeverityCode = 'C' | 'M' | 'm' | 'w';

export interface DemoLogSummary {
  /** Node logs written (the unreachable node's included). */
  logs: number;
  /** Bytes of log text (logs and mobatch_result.txt), before compression. */
  textBytes: number;
  /** The one node that was not reached, or null when the inventory has no node. */
  unreachable: string | null;
  /** Alarm rows written, per severity and table. */
  alarms: { unacknowledged: Record<DemoSeverityCode, number>; acknowledged: Record<DemoSeverityCode, number> };
  /** Nodes whose logs hold no alarm at all, and those whose alarms are all Warnings. */
  clean: string[];
  warningsOnly: string[];
  /** Cells written LOCKED, or UNLOCKED but DISABLED; term points DISABLED (`node MO`). */
  lockedCells: string[];
  disabledCells: string[];
  disabledTermPoints: string[];
  /** Configuration values written unlike the inventory or the usual setting, in words. */
  deviations: string[];
  /** Files written with CRLF line ends, the one with `<ip>: ` prefixes, the one with `cvls`. */
  crlfFiles: string[];
  ipPrefixedFile: string | null;
  cvlsFile: string | null;
}
