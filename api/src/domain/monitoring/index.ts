/**
 * Monitoring's pure rules (docs/engines/monitoring.md#node-checks, docs/engines/monitoring.md#the-site-report): the node checks made on each parsed log and the MoBatch
 * scripts that collect those logs. No I/O here.
 */
export { BASELINE, CELL_CLASSES, CHECKED_ATTRIBUTES, LINK_TECH, evaluateNode, lastRdn, valueNumber, valueWord } from './checks';
export type { CheckStatus, Finding, InventoryCell, InventoryFacts, NodeEvaluation, NodeStatus } from './checks';
export { DEFAULT_PARALLEL, DEFAULT_TIMEOUT_MINUTES, MAX_LOG_ZIP_BYTES, buildMobatchScripts, commandsOf, scriptGroupOf } from './scripts';
export type { ScriptNode, ScriptOptions } from './scripts';
