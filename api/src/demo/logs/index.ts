/**
 * Demo MoBatch output (issue 13): one `<node>.log` per node of the inventory plus `mobatch_result.txt`,
 * written in the formats the parser of domain/amos reads (and that real moshell/AMOS prints), so a
 * fresh console shows living monitoring pages through the real parse job. Deterministic: the same
 * inventory, seed and `now` give the same bytes.
 *
 * What a newcomer sees: alarms of every severity in both `alt` tables (UNACKNOWLEDGED / ACKNOWLEDGED
 * with its Operator column) across many nodes, a few clean sites and some with Warnings only, locked
 * and disabled cells, disabled S1/X2/NG/Iub term points, RET values on every site, configuration
 * values that follow the inventory except for a few deliberate deviations, and exactly one unreachable
 * node. The logs carry the real quirks too: CRLF in some files, `<ip>: ` prefixes in one, `cvls` once.
 */
export { writeDemoLogArchive, writeLogArchive } from './archive';
export { parseDemoLogsIfNone, type DemoLogsParse, type DemoParseParams } from './first-start';
export { readDemoLogNodes, syntheticLogNodes } from './inventory';
export {
  DEMO_LOGS_FILE,
  MOBATCH_RESULT_FILE,
  type DemoCellTech,
  type DemoLogCell,
  type DemoLogNode,
  type DemoLogOptions,
  type DemoLogScale,
  type DemoLogSummary,
  type DemoSeverityCode,
} from './model';
