import { COMMISSIONING_PLAN_FIELDS, TRACKER_FIELDS, WORK_ORDER_DELTA_FIELDS, WORK_ORDER_STATUS_FIELDS, TRACKING_MESSAGES } from 'contracts';
import type { DataSetKind } from '../domain/tracking';
import type { TrackingTables } from './tables';

/** camelCase field → snake_case column (LastUpdate → last_update). */
export function columnOf(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/^_/, '');
}

export const DATE_FIELDS: ReadonlySet<string> = new Set([
  'commDate',
  'LastUpdate',
  'dateEntry',
  'deliveredDate',
  'wowCloseDate',
  'wowLastChange',
  'trackerLastUpdate',
  'wowLastUpdate',
]);
export const NUMBER_FIELDS: ReadonlySet<string> = new Set(['id', 'week', 'dayCount']);

/**
 * The column titles the tracking pages show (mfe-tracking's column lists), which exports write as their
 * header row (issue 47). Each is its field's name in words, so the import's header rule (case and spaces
 * ignored, `headerKey` in api/src/domain/tracking/headers.ts) reads an export back as it reads the fields.
 */
export const COLUMN_TITLES: Readonly<Record<string, string>> = {
  id: 'Id',
  localId: 'Local Id',
  technology: 'Technology',
  equipCode: 'Equip Code',
  equipName: 'Equip Name',
  supplier: 'Supplier',
  workType: 'Work Type',
  commDate: 'Comm Date',
  week: 'Week',
  mkOwner: 'MK Owner',
  impOwner: 'Imp Owner',
  btsArea: 'BTS Area',
  btsTech: 'BTS Tech',
  project: 'Project',
  comments: 'Comments',
  statResponse: 'Stat Response',
  bssTech: 'BSS Tech',
  workOrder: 'Work Order',
  localType: 'Local Type',
  LastUpdate: 'Last Update',
  scheduleStatus: 'Schedule Status',
  dateEntry: 'Date Entry',
  dayCount: 'Day Count',
  currentStatus: 'Current Status',
  deliveredDate: 'Delivered Date',
  siteId: 'Site Id',
  woType: 'WO Type',
  woId: 'WO Id',
  action: 'Action',
  trackerStatus: 'Tracker Status',
  wowStatus: 'WOW Status',
  wowCloseDate: 'WOW Close Date',
  wowLastChange: 'WOW Last Change',
  trackerLastUpdate: 'Tracker Last Update',
  wowLastUpdate: 'WOW Last Update',
};

/** A field's column title; a field without one keeps its name. */
export const titleOf = (field: string): string => COLUMN_TITLES[field] ?? field;

export type TableName = keyof TrackingTables;

/** A list the pages show (and an export writes). */
export interface TableSpec {
  table: TableName;
  /** Fields the list answers, in order (row key `id` first where the contract has it). */
  rowFields: readonly string[];
  /** Columns an export writes, in order: exactly the table's columns. */
  exportFields: readonly string[];
  sheetName: string;
  /** Download name, before the timestamp. */
  filePrefix: string;
  exportKind: string;
}

export const COMMISSIONING_PLAN_TABLE: TableSpec = {
  table: 'tracking_commissioning_plan',
  rowFields: COMMISSIONING_PLAN_FIELDS,
  exportFields: COMMISSIONING_PLAN_FIELDS,
  sheetName: 'Commissioning Plan',
  filePrefix: 'CommissioningPlan',
  exportKind: 'tracking.commissioningPlan',
};

export const TRACKER_TABLE: TableSpec = {
  table: 'tracking_tracker',
  rowFields: ['id', ...TRACKER_FIELDS],
  exportFields: TRACKER_FIELDS,
  sheetName: 'Tracker',
  filePrefix: 'Tracker',
  exportKind: 'tracking.tracker',
};

export const WORK_ORDER_STATUS_TABLE: TableSpec = {
  table: 'tracking_work_orders',
  rowFields: ['id', ...WORK_ORDER_STATUS_FIELDS],
  exportFields: WORK_ORDER_STATUS_FIELDS,
  sheetName: 'Work Order Status',
  filePrefix: 'WorkOrderStatus',
  exportKind: 'tracking.workOrderStatus',
};

export const DELTA_TABLE: TableSpec = {
  table: 'tracking_wo_delta',
  rowFields: ['id', ...WORK_ORDER_DELTA_FIELDS],
  exportFields: WORK_ORDER_DELTA_FIELDS,
  sheetName: 'Work Order Delta',
  filePrefix: 'WorkOrderDelta',
  exportKind: 'tracking.workOrderDelta',
};

/** tracking_stamps keys of the last-update stamps (specification §3), one per operator. */
export const STAMPS = {
  commissioningPlan: 'tracking.commissioningPlan.importedAt',
  tracker: 'tracking.tracker.updatedAt',
  workOrderStatus: 'tracking.workOrderStatus.importedAt',
} as const satisfies Record<DataSetKind, string>;

export interface ImportSpec {
  kind: DataSetKind;
  table: TableSpec;
  /** Name for messages and notifications. */
  label: string;
  successMessage: string;
}

export const IMPORTS: Record<DataSetKind, ImportSpec> = {
  commissioningPlan: {
    kind: 'commissioningPlan',
    table: COMMISSIONING_PLAN_TABLE,
    label: 'Commissioning Plan',
    successMessage: TRACKING_MESSAGES.commissioningPlanImported,
  },
  tracker: { kind: 'tracker', table: TRACKER_TABLE, label: 'Tracker', successMessage: TRACKING_MESSAGES.trackerImported },
  workOrderStatus: {
    kind: 'workOrderStatus',
    table: WORK_ORDER_STATUS_TABLE,
    label: 'Work Order Status',
    successMessage: TRACKING_MESSAGES.workOrderStatusImported,
  },
};

/** The tables an export job may write, by their export kind. */
export const TABLES_BY_EXPORT: Readonly<Record<string, TableSpec>> = Object.fromEntries(
  [COMMISSIONING_PLAN_TABLE, TRACKER_TABLE, WORK_ORDER_STATUS_TABLE, DELTA_TABLE].map((spec) => [spec.exportKind, spec]),
);
