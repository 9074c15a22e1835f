import {
  COMMISSIONING_PLAN_IMPORT_FIELDS,
  SCHEDULE_STATUSES,
  TRACKER_FIELDS,
  WORK_ORDER_STATUS_FIELDS,
  type CommissioningPlanRow,
  type TrackerRow,
  type WorkOrderStatusRow,
} from 'contracts';
import { parseChoice, parseDate, parseRequiredText, parseText, parseWeek, parseWholeNumber, type CellValue, type Parsed } from './values';

/** A column of an import: the field it fills and how a cell becomes its value. */
export interface FieldSpec {
  field: string;
  parse: (value: CellValue) => Parsed<unknown>;
}

/** The three workbooks the tracking pages import. */
export type DataSetKind = 'commissioningPlan' | 'tracker' | 'workOrderStatus';

export type CommissioningPlanImportRow = Omit<CommissioningPlanRow, 'id' | 'LastUpdate'>;
export type TrackerImportRow = Omit<TrackerRow, 'id'>;
export type RowOf<K extends DataSetKind> = K extends 'commissioningPlan'
  ? CommissioningPlanImportRow
  : K extends 'tracker'
    ? TrackerImportRow
    : WorkOrderStatusRow;

const DATE_FIELDS = new Set(['commDate', 'dateEntry', 'deliveredDate', 'wowCloseDate', 'wowLastChange', 'wowLastUpdate']);
const REQUIRED = new Set(['localId', 'siteId', 'woType', 'woId', 'wowStatus']);

function specOf(field: string): FieldSpec {
  if (REQUIRED.has(field)) return { field, parse: parseRequiredText };
  if (DATE_FIELDS.has(field)) return { field, parse: parseDate };
  if (field === 'week') return { field, parse: parseWeek };
  if (field === 'dayCount') return { field, parse: parseWholeNumber };
  if (field === 'scheduleStatus') return { field, parse: parseChoice(SCHEDULE_STATUSES) };
  return { field, parse: parseText };
}

/** Columns each import reads, in the order exports write them; every one must be present as a header. */
export const IMPORT_SPECS: Record<DataSetKind, readonly FieldSpec[]> = {
  commissioningPlan: COMMISSIONING_PLAN_IMPORT_FIELDS.map(specOf),
  tracker: TRACKER_FIELDS.map(specOf),
  workOrderStatus: WORK_ORDER_STATUS_FIELDS.map(specOf),
};
