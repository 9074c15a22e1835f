export { COMMISSIONING_PLAN_TABLE, DELTA_TABLE, IMPORTS, STAMPS, TRACKER_TABLE, WORK_ORDER_STATUS_TABLE, type TableSpec } from './datasets';
export { exportTable } from './exporter';
export { IMPORT_MESSAGES, importDataSet, TrackingImportError, writeErrorWorkbook, type ImportResult } from './importer';
export { listRows, readStamp } from './queries';
export { recomputeDelta, syncTracker, type SyncResult } from './sync';
export { NOT_A_WORKBOOK, readFirstSheet, WorkbookReadError } from './workbook';
export { importDemoTrackingIfEmpty, type DemoTrackingResult } from './demo';
