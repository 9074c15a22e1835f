import { Type, type Static } from '@sinclair/typebox';
import { SITE_REPORT_TABS } from './monitoring';

/**
 * Table settings of each user, kept on the server so they follow the user to any browser (issue 16,
 * NetBox-style): for each shared table (named by a stable table key such as `tracking.tracker`) the
 * columns' order, which are hidden and their widths, and named saved filters (field → the text its
 * cells must contain, as the list calls' `filters`).
 *
 * Calls (any session; a user reads and writes only their own settings — the caller is the session, no
 * user id is ever taken from the request):
 * - `GET TableSettings/GetSettings?tableKey=` → `TableSettings` (empty lists when nothing is saved).
 * - `PUT TableSettings/SaveColumns` body `SaveColumnsRequest` → `TableSettings`; an empty list resets
 *   the table to its own columns.
 * - `PUT TableSettings/SaveFilter` body `SaveFilterRequest` → `TableSettings`; a name already saved on
 *   that table is replaced.
 * - `DELETE TableSettings/DeleteFilter` body `DeleteFilterRequest` → `TableSettings`; 404 when no filter
 *   of that name is saved.
 * Bad input (schema, a key that is not one of the console's tables (TABLE_KEYS), a column listed twice,
 * control characters, a blank name or text, over a limit, over the bytes a user may keep) → 400 `{ message }`.
 */

export const TABLE_SETTINGS_LIMITS = {
  tableKeyLength: 100,
  /** Columns one table may list. */
  columns: 100,
  fieldLength: 100,
  /** Column width in CSS pixels. */
  minWidth: 40,
  maxWidth: 2000,
  filterNameLength: 60,
  /** Fields one saved filter may name. */
  filterFields: 50,
  filterTextLength: 200,
  /** Saved filters of one table, and of one user across all tables. */
  filtersPerTable: 50,
  filtersPerUser: 500,
  /** Everything one user keeps (column lists, filter names and texts as stored), in bytes of UTF-8. */
  bytesPerUser: 256 * 1024,
} as const;

/** The key of one of the site report's tables, as its page names it (mfe-monitoring siteReport.tsx). */
export const siteReportTableKey = (tableName: string) => `monitoring.siteReport.${tableName.replace(/[^A-Za-z0-9]+/g, '-')}`;

/** The key of a run history table (shared-ui RunHistoryTable), named by the call that lists it. */
export const runHistoryTableKey = (historyPath: string) => `history:${historyPath}`;

/** The site report's tables: one per tab, two on Summary (as the API's site report names them). */
export const SITE_REPORT_TABLES = ['Site Summary', 'Commissioning Information', ...SITE_REPORT_TABS.filter((tab) => tab !== 'Summary')] as const;

/** The calls that list a page's run history (planning, validation, optimisation pages). */
export const RUN_HISTORY_PATHS = [
  'Parameters/GetPlanningHistory',
  'Validation/GetCpichValidationHistory',
  'Validation/GetNbrRelationsValidationHistory',
  'Validation/GetRanShareValidationHistory',
  'Validation/GetHealthChecksHistory',
  'Optimization/GetNbrRelationsOptimizationHistory',
] as const;

/**
 * Every table of the console that keeps settings: only these keys are stored, so nobody can fill the
 * database with made-up tables. A table added to a page needs its key here (api/test/table-settings.test.ts
 * reads the pages' keys and fails on one missing).
 */
export const TABLE_KEYS: ReadonlySet<string> = new Set([
  'tracking.commissioningplan',
  'tracking.tracker',
  'tracking.workorderstatus',
  'planning.frequencyPlans',
  'monitoring.configurationManagement',
  'monitoring.overallSiteSummary',
  'monitoring.uploadLogs.history',
  'monitoring.alarmHints',
  'monitoring.faultManagement.summary',
  'monitoring.faultManagement.alarms',
  'monitoring.parseReport.files',
  'monitoring.parseReport.problems',
  'management.users',
  'management.users.audit',
  'management.operatorDetails.projects',
  'management.operatorDetails.users',
  ...SITE_REPORT_TABLES.map(siteReportTableKey),
  ...RUN_HISTORY_PATHS.map(runHistoryTableKey),
]);

export const TABLE_SETTINGS_MESSAGES = {
  duplicateColumn: (key: string) => `Column ${key} is listed twice.`,
  controlCharacters: (what: string) => `${what} must not contain control characters.`,
  blankName: 'Give the filter a name.',
  blankFilter: (field: string) => `The filter on ${field} is empty.`,
  tooManyFilters: `At most ${TABLE_SETTINGS_LIMITS.filtersPerTable} saved filters per table: delete one first.`,
  tooManyFiltersInAll: `At most ${TABLE_SETTINGS_LIMITS.filtersPerUser} saved filters in all: delete some first.`,
  noSuchFilter: 'No saved filter of that name on this table.',
  unknownTable: (key: string) => `There is no table "${key}" in the console: settings are kept only for its tables.`,
  tooManyBytes: `Your saved table settings may take at most ${TABLE_SETTINGS_LIMITS.bytesPerUser / 1024} KB in all: delete some saved filters or reset some tables first.`,
} as const;

/** A table's stable name: letters, digits and . _ : / - (e.g. `tracking.tracker`, `monitoring.siteReport.site-summary`). */
export const TableKey = Type.String({ minLength: 1, maxLength: TABLE_SETTINGS_LIMITS.tableKeyLength, pattern: '^[A-Za-z0-9][A-Za-z0-9._:/-]*$' });
/** A row field a column shows or a filter applies to (site report fields come from the data, so any text; control characters are refused by the handler). */
const FieldName = Type.String({ minLength: 1, maxLength: TABLE_SETTINGS_LIMITS.fieldLength });
const FilterName = Type.String({ minLength: 1, maxLength: TABLE_SETTINGS_LIMITS.filterNameLength });

export const ColumnSetting = Type.Object(
  {
    key: FieldName,
    hidden: Type.Boolean(),
    /** CSS pixels; null: the table's own width. */
    width: Type.Union([Type.Integer({ minimum: TABLE_SETTINGS_LIMITS.minWidth, maximum: TABLE_SETTINGS_LIMITS.maxWidth }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type ColumnSetting = Static<typeof ColumnSetting>;

/** Field → the text its cells must contain (any case), as the list calls' `filters`. */
export const FilterValues = Type.Record(FieldName, Type.String({ minLength: 1, maxLength: TABLE_SETTINGS_LIMITS.filterTextLength }), {
  minProperties: 1,
  maxProperties: TABLE_SETTINGS_LIMITS.filterFields,
});
export type FilterValues = Static<typeof FilterValues>;

export const SavedFilter = Type.Object(
  {
    name: FilterName,
    filters: FilterValues,
    updatedAt: Type.String(),
  },
  { additionalProperties: false },
);
export type SavedFilter = Static<typeof SavedFilter>;

export const TableSettings = Type.Object(
  {
    tableKey: TableKey,
    /** In the order the user put them; columns the table has and this list lacks keep their place after these. */
    columns: Type.Array(ColumnSetting, { maxItems: TABLE_SETTINGS_LIMITS.columns }),
    /** By name. */
    savedFilters: Type.Array(SavedFilter, { maxItems: TABLE_SETTINGS_LIMITS.filtersPerTable }),
  },
  { additionalProperties: false },
);
export type TableSettings = Static<typeof TableSettings>;

export const TableSettingsQuery = Type.Object({ tableKey: TableKey }, { additionalProperties: false });
export type TableSettingsQuery = Static<typeof TableSettingsQuery>;

export const SaveColumnsRequest = Type.Object(
  { tableKey: TableKey, columns: Type.Array(ColumnSetting, { maxItems: TABLE_SETTINGS_LIMITS.columns }) },
  { additionalProperties: false },
);
export type SaveColumnsRequest = Static<typeof SaveColumnsRequest>;

export const SaveFilterRequest = Type.Object({ tableKey: TableKey, name: FilterName, filters: FilterValues }, { additionalProperties: false });
export type SaveFilterRequest = Static<typeof SaveFilterRequest>;

export const DeleteFilterRequest = Type.Object({ tableKey: TableKey, name: FilterName }, { additionalProperties: false });
export type DeleteFilterRequest = Static<typeof DeleteFilterRequest>;
