import { Type, type Static } from '@sinclair/typebox';
import { fieldLiterals, fieldsOf, listQuery, pageOf } from './common';

/**
 * Tracking (specification §2, §3, §7; docs/engines/tracking.md#rules-applied). Access: `canTrack` on every route.
 *
 * Lists — `GET /api/Tracker/GetCommissioningPlan`, `GET /api/Tracker/GetTracker`,
 * `GET /api/Tracker/GetWorkOrderStatusDelta` — take `ListQuery` and answer `{ rows, total }`, paged,
 * sorted and filtered on the server.
 *
 * Last import / update — `GET /api/Tracker/GetCommissioningPlanLastImport`, `GetTrackerLastUpdate`,
 * `GetWorkOrderStatusLastImport` — answer a JSON string: ISO-8601 UTC, or "" when there is none.
 *
 * Imports — `GET /api/Tracker/CommissioningPlanUpload?filePath=<uploadId>`,
 * `GET /api/Tracker/ImportTracker?filePath=`, `GET /api/Tracker/WorkOrderStatusUpload?filePath=` —
 * take an upload id of the caller (File/Upload, `.xlsx`) and answer 200 `ImportResponse`, or 400
 * `ImportErrorResponse` (nothing imported), or 404 'Upload not found.'.
 *
 * Workbook columns (first row = headers, matched case- and space-insensitively; unknown columns are
 * ignored, so an export re-imports):
 * - Commissioning plan: `COMMISSIONING_PLAN_IMPORT_FIELDS` (id and LastUpdate are ignored); localId required.
 * - Tracker: `TRACKER_FIELDS`; localId required.
 * - Work order status (the WOW data set): `WORK_ORDER_STATUS_FIELDS` = siteId, woType, woId, wowStatus,
 *   wowCloseDate, wowLastChange, wowLastUpdate; siteId, woType, woId and wowStatus required.
 * Values: dates are Excel dates, or text DD-MM-YYYY[ HH:mm[:ss]] or ISO-8601 (text without a zone is
 * UTC); week is a number 1–53 (also read from 'W05' or '2024-W05', keeping the week number); dayCount
 * a whole number ≥ 0; scheduleStatus one of On time, Delayed, Done.
 *
 * Sync — `GET /api/Tracker/TrackerUpload` → `{ message }`: rebuilds the tracker (one row per localId)
 * from the commissioning plan and the work order status, then the delta.
 *
 * Exports — `GET /api/Tracker/GetCommissioningPlanExcel`, `DownloadTracker`, `GetWorkOrderStatusExcel`
 * (the WOW import columns), `GetWorkOrderStatusDeltaExcel` → `FileResponse` ({ file, message? }, see
 * contracts/files.ts); then `File/Download?file=`.
 */

/** A point in time: ISO-8601 UTC text, or null when the row has none. */
const DateValue = Type.Union([Type.String({ description: 'ISO-8601 UTC' }), Type.Null()]);
const Text = Type.Union([Type.String(), Type.Null()]);
const WholeNumber = Type.Union([Type.Integer(), Type.Null()]);

export const SCHEDULE_STATUSES = ['On time', 'Delayed', 'Done'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

export const DELTA_ACTIONS = ['Update tracker', 'Close WO', 'Missing in tracker', 'Missing in WOW'] as const;
export type DeltaAction = (typeof DELTA_ACTIONS)[number];

/** Specification §3, in table order. `id` is the row key; `LastUpdate` when the row was imported. */
export const CommissioningPlanRow = Type.Object(
  {
    id: Type.Integer(),
    localId: Type.String(),
    technology: Text,
    equipCode: Text,
    equipName: Text,
    supplier: Text,
    workType: Text,
    commDate: DateValue,
    week: WholeNumber,
    mkOwner: Text,
    impOwner: Text,
    btsArea: Text,
    btsTech: Text,
    project: Text,
    comments: Text,
    statResponse: Text,
    bssTech: Text,
    workOrder: Text,
    localType: Text,
    LastUpdate: DateValue,
  },
  { additionalProperties: false },
);
export type CommissioningPlanRow = Static<typeof CommissioningPlanRow>;

/**
 * Specification §3, in table order, plus `id` (row key only: not a column, not exported).
 * dateEntry: when the site entered the tracker; dayCount: whole days since dateEntry (at the last sync
 * or import); week: ISO week of commDate.
 */
export const TrackerRow = Type.Object(
  {
    id: Type.Integer(),
    localId: Type.String(),
    equipName: Text,
    supplier: Text,
    commDate: DateValue,
    mkOwner: Text,
    impOwner: Text,
    project: Text,
    comments: Text,
    bssTech: Text,
    localType: Text,
    scheduleStatus: Text,
    dateEntry: DateValue,
    week: WholeNumber,
    dayCount: WholeNumber,
    currentStatus: Text,
    deliveredDate: DateValue,
  },
  { additionalProperties: false },
);
export type TrackerRow = Static<typeof TrackerRow>;

/** Specification §3, in table order, plus `id` (row key only: not a column, not exported). action is one of DELTA_ACTIONS. */
export const WorkOrderDeltaRow = Type.Object(
  {
    id: Type.Integer(),
    siteId: Type.String(),
    woType: Text,
    woId: Text,
    trackerStatus: Text,
    wowStatus: Text,
    wowCloseDate: DateValue,
    wowLastChange: DateValue,
    trackerLastUpdate: DateValue,
    wowLastUpdate: DateValue,
    action: Type.String(),
  },
  { additionalProperties: false },
);
export type WorkOrderDeltaRow = Static<typeof WorkOrderDeltaRow>;

/** One row of the work order status (WOW) workbook: what WorkOrderStatusUpload reads and GetWorkOrderStatusExcel writes. */
export interface WorkOrderStatusRow {
  siteId: string;
  woType: string;
  woId: string;
  wowStatus: string;
  wowCloseDate: string | null;
  wowLastChange: string | null;
  wowLastUpdate: string | null;
}

/** Table columns, in order (exports write exactly these, header = field name). */
export const COMMISSIONING_PLAN_FIELDS = fieldsOf(CommissioningPlanRow);
export type CommissioningPlanField = (typeof COMMISSIONING_PLAN_FIELDS)[number];
/** What a commissioning plan import reads (id and LastUpdate are the server's). */
export const COMMISSIONING_PLAN_IMPORT_FIELDS = COMMISSIONING_PLAN_FIELDS.filter((f) => f !== 'id' && f !== 'LastUpdate');

export const TRACKER_FIELDS = fieldsOf(TrackerRow, ['id']);
export type TrackerField = (typeof TRACKER_FIELDS)[number];

export const WORK_ORDER_DELTA_FIELDS = fieldsOf(WorkOrderDeltaRow, ['id']);
export type WorkOrderDeltaField = (typeof WORK_ORDER_DELTA_FIELDS)[number];

export const WORK_ORDER_STATUS_FIELDS = ['siteId', 'woType', 'woId', 'wowStatus', 'wowCloseDate', 'wowLastChange', 'wowLastUpdate'] as const;
export type WorkOrderStatusField = (typeof WORK_ORDER_STATUS_FIELDS)[number];

/** Query of the three list calls: `listQuery` of contracts/common.ts (default sort: id, i.e. file order). */

export const CommissioningPlanQuery = listQuery(fieldLiterals(COMMISSIONING_PLAN_FIELDS));
export type CommissioningPlanQuery = Static<typeof CommissioningPlanQuery>;
export const TrackerQuery = listQuery(fieldLiterals(['id', ...TRACKER_FIELDS]));
export type TrackerQuery = Static<typeof TrackerQuery>;
export const WorkOrderDeltaQuery = listQuery(fieldLiterals(['id', ...WORK_ORDER_DELTA_FIELDS]));
export type WorkOrderDeltaQuery = Static<typeof WorkOrderDeltaQuery>;

/** Any of the three list queries, as the shared table sends it. */
export interface ListQuery {
  page?: number;
  size?: number;
  sort?: string;
  order?: 'ascend' | 'descend';
  filters?: string;
}

export const CommissioningPlanPage = pageOf(CommissioningPlanRow);
export type CommissioningPlanPage = Static<typeof CommissioningPlanPage>;
export const TrackerPage = pageOf(TrackerRow);
export type TrackerPage = Static<typeof TrackerPage>;
export const WorkOrderDeltaPage = pageOf(WorkOrderDeltaRow);
export type WorkOrderDeltaPage = Static<typeof WorkOrderDeltaPage>;

/** `filePath` is an upload id answered by File/Upload (the name is the specification's). */
export const ImportQuery = Type.Object({ filePath: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });
export type ImportQuery = Static<typeof ImportQuery>;

export const TRACKING_MESSAGES = {
  commissioningPlanImported: 'Commissioning Plan successfully imported!',
  trackerImported: 'Tracker successfully imported!',
  workOrderStatusImported: 'Work Order Status successfully imported!',
} as const;

const StatusText = Type.Union([Type.String(), Type.Null()]);

/**
 * `Tracker/TrackerUpload` (the sync): its message (what changed, in words) and the changes, site by site
 * against the tracker it replaced; `statusMoves` are sites whose current status moved, by move.
 */
export const TrackerSyncResponse = Type.Object(
  {
    message: Type.String(),
    changes: Type.Object(
      {
        added: Type.Integer({ minimum: 0 }),
        updated: Type.Integer({ minimum: 0 }),
        unchanged: Type.Integer({ minimum: 0 }),
        removed: Type.Integer({ minimum: 0 }),
        statusMoves: Type.Array(Type.Object({ from: StatusText, to: StatusText, count: Type.Integer({ minimum: 1 }) }, { additionalProperties: false })),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type TrackerSyncResponse = Static<typeof TrackerSyncResponse>;

export const ImportResponse = Type.Object(
  { message: Type.String(), rows: Type.Integer({ minimum: 0, description: 'Rows imported.' }) },
  { additionalProperties: false },
);
export type ImportResponse = Static<typeof ImportResponse>;

/** A problem of one cell (or row): row is the sheet's row number (the header is row 1); column the header text or field. */
export const ImportProblem = Type.Object({ row: Type.Integer(), column: Type.String(), problem: Type.String() }, { additionalProperties: false });
export type ImportProblem = Static<typeof ImportProblem>;

/**
 * 400 of an import: nothing was imported. message: '<n> rows have problems; nothing was imported.', or
 * what is wrong with the whole file (missing columns, empty workbook, not a workbook) with errors [].
 * errors: at most 200. errorFile: export id (File/Download) of the original rows plus an 'Error' column.
 */
export const ImportErrorResponse = Type.Object(
  { message: Type.String(), errors: Type.Array(ImportProblem), errorFile: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
export type ImportErrorResponse = Static<typeof ImportErrorResponse>;

export const MAX_REPORTED_PROBLEMS = 200;
