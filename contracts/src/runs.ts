import { Type, type Static } from '@sinclair/typebox';
import { fieldLiterals, fieldsOf, Id, listQuery, pageOf } from './common';

/**
 * Planning, validation and optimisation runs (specification §3, §7, §8; docs/architecture.md#api-conventions, docs/engines/planning.md#every-run). Every run is
 * a job (progress on the hub, a notification when done) and a row of its history; its workbook stays
 * downloadable from the history.
 *
 * A run answers `RunResponse`: `{ file, message?, runId, summary, preview }` when it wrote a workbook
 * (download it with `File/Download?file=`), `{ message, runId, summary, preview }` when it found
 * nothing to write. The page shows `summary` (counts per verdict) and every row of the run's result
 * sheets through the findings route, so a user sees the answer without opening Excel; `preview` (the
 * first rows of the first sheet) stays for callers that read the answer alone. Refusals: 400 `{ message }` (bad input, nothing
 * recorded), 404 (unknown site or upload), 599 `{ message }` (a warning: e.g. no data for the site).
 *
 * Every run kind has the same three routes (runs/routes.ts registerRunRoutes): its history
 * (`Parameters/GetPlanningHistory`, `Validation/GetCpichValidationHistory`, …) takes `RunHistoryQuery`
 * and answers `{ rows, total }`, newest first by default; `Get…Export` takes the run's id (named as
 * the specification names it, e.g. `cpichValidationId`; `runId` for RAN share and health checks) and
 * answers `FileResponse` `{ file }` (a fresh download of the run's workbook for the caller), 404 `Run
 * not found.` / `This run has no workbook.`; `Get…Findings` takes the same id and `RunFindingsQuery`
 * and answers `RunFindingsPage`: the run (`RunView`) and one page of one result sheet, worst first.
 */

export const RUN_KINDS = [
  'parameterPlanning',
  'cpichValidation',
  'nbrRelationsValidation',
  'ranShareValidation',
  'healthChecks',
  'nbrRelationsOptimization',
] as const;
export type RunKind = (typeof RUN_KINDS)[number];

/** How a verdict count reads: green, amber, red or neutral. */
export const SUMMARY_TONES = ['ok', 'warning', 'error', 'info'] as const;
export const RunSummaryItem = Type.Object(
  { label: Type.String(), count: Type.Integer({ minimum: 0 }), tone: Type.Union(SUMMARY_TONES.map((t) => Type.Literal(t))) },
  { additionalProperties: false },
);
export type RunSummaryItem = Static<typeof RunSummaryItem>;

export const PreviewValue = Type.Union([Type.String(), Type.Number(), Type.Null()]);
export const RunPreview = Type.Object(
  {
    /** Which sheet of the workbook the rows come from. */
    title: Type.String(),
    columns: Type.Array(Type.Object({ key: Type.String(), label: Type.String() }, { additionalProperties: false })),
    /** The first rows (at most PREVIEW_ROWS). */
    rows: Type.Array(Type.Record(Type.String(), PreviewValue)),
    /** Rows of that sheet in all. */
    total: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type RunPreview = Static<typeof RunPreview>;
export const PREVIEW_ROWS = 20;

export const RunResponse = Type.Object(
  {
    runId: Type.Integer(),
    file: Type.Optional(Type.String()),
    message: Type.Optional(Type.String()),
    summary: Type.Array(RunSummaryItem),
    preview: RunPreview,
  },
  { additionalProperties: false },
);
export type RunResponse = Static<typeof RunResponse>;

/**
 * One history row: the specification's fields of every history (§3: id, user, site(s), antenna,
 * lteBands, files, runDate) plus what the run concluded. Pages show the columns of their history.
 */
export const RunHistoryRow = Type.Object(
  {
    id: Type.Integer(),
    user: Type.String(),
    /** Site ids, comma-joined. */
    sites: Type.String(),
    /** The planning history's single site (= sites). */
    site: Type.String(),
    files: Type.String(),
    antenna: Type.Union([Type.String(), Type.Null()]),
    lteBands: Type.Union([Type.String(), Type.Null()]),
    runDate: Type.String({ description: 'ISO-8601 UTC' }),
    message: Type.Union([Type.String(), Type.Null()]),
    /** The verdict counts in words, e.g. "OK 12, MISSING 2". */
    outcome: Type.String(),
    hasFile: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type RunHistoryRow = Static<typeof RunHistoryRow>;
export const RUN_HISTORY_FIELDS = fieldsOf(RunHistoryRow, ['hasFile']);

export const RunHistoryQuery = listQuery(fieldLiterals(RUN_HISTORY_FIELDS));
export type RunHistoryQuery = Static<typeof RunHistoryQuery>;
export const RunHistoryPage = pageOf(RunHistoryRow);
export type RunHistoryPage = Static<typeof RunHistoryPage>;

/**
 * A result sheet of a run as the page lists it: its columns (what kind of value each holds, so the
 * table formats, filters and sorts it), how many rows it has, which column holds the row's verdict, and
 * the worst verdict found on it (the sheet switch's colour).
 */
export const RUN_COLUMN_KINDS = ['text', 'number', 'date'] as const;
export const RunSheetInfo = Type.Object(
  {
    name: Type.String(),
    columns: Type.Array(
      Type.Object(
        { key: Type.String(), label: Type.String(), kind: Type.Union(RUN_COLUMN_KINDS.map((k) => Type.Literal(k))) },
        { additionalProperties: false },
      ),
    ),
    total: Type.Integer({ minimum: 0 }),
    verdictKey: Type.Union([Type.String(), Type.Null()]),
    worst: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
export type RunSheetInfo = Static<typeof RunSheetInfo>;

/** A recorded run as its result shows it again (after the run, from its history row, from `?run=<id>`). */
export const RunView = Type.Object(
  {
    runId: Type.Integer(),
    user: Type.String(),
    sites: Type.String(),
    files: Type.String(),
    runDate: Type.String({ description: 'ISO-8601 UTC' }),
    message: Type.Union([Type.String(), Type.Null()]),
    summary: Type.Array(RunSummaryItem),
    /** Its result sheets, in the order the page offers them (the first is shown first). */
    sheets: Type.Array(RunSheetInfo),
    hasFile: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type RunView = Static<typeof RunView>;

/** One row of a result sheet: its place in the sheet (1-based), its verdict, its cells by column key (dates as ISO-8601 text). */
export const RunFindingRow = Type.Object(
  { rowNo: Type.Integer({ minimum: 1 }), verdict: Type.Union([Type.String(), Type.Null()]), values: Type.Record(Type.String(), PreviewValue) },
  { additionalProperties: false },
);
export type RunFindingRow = Static<typeof RunFindingRow>;

/**
 * The worst-first order of verdicts (issue 46): what needs doing first, then what is fine. Verdicts
 * are matched without case; NOK (monitoring) and Critical/Major alarms read as errors, Minor as a
 * warning; any other verdict (NO_LAYER, UNRESOLVED, an optimisation candidate…) comes after EXTRA and
 * before OK; rows without a verdict (N/A, blank) come last.
 */
export const VERDICT_ORDER = ['ERROR', 'WARNING', 'MISSING', 'WRONG', 'EXTRA', 'OK'] as const;

/**
 * A run's findings, one sheet at a time (the first when `sheet` is not given), through the shared list
 * query: page, size, sort (a column key of the sheet; its verdict column sorts worst-first), order,
 * filters (JSON { columnKey: text }, contains, any case). Default order: worst verdict first, then the
 * sheet's own order. The run's id is named as its export route names it.
 */
export const runFindingsQuery = (idParam: string) =>
  Type.Object(
    {
      [idParam]: Id,
      sheet: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
      page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
      size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
      sort: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
      order: Type.Optional(Type.Union([Type.Literal('ascend'), Type.Literal('descend')])),
      filters: Type.Optional(Type.String({ maxLength: 4000 })),
    },
    { additionalProperties: false },
  );
export interface RunFindingsQuery {
  sheet?: string;
  page?: number;
  size?: number;
  sort?: string;
  order?: 'ascend' | 'descend';
  filters?: string;
}
export const RunFindingsPage = Type.Object(
  { run: RunView, sheet: Type.String(), rows: Type.Array(RunFindingRow), total: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);
export type RunFindingsPage = Static<typeof RunFindingsPage>;

/** Site ids as the site selects send them. */
export const SiteId = Type.String({ minLength: 1, maxLength: 100 });
/** `sites` of a multi-site run: comma-joined site ids, 1 to 20 (specification §5: site select ≤ 20). */
export const SiteIdList = Type.String({ minLength: 1, maxLength: 2100, pattern: '^[^,]+(,[^,]+){0,19}$' });
/** Upload ids (File/Upload, File/UploadMultiple), comma-joined, 1 to 20. */
export const UploadIdList = Type.String({ minLength: 1, maxLength: 2100, pattern: '^[^,]+(,[^,]+){0,19}$' });

// ---- Frequency plans (per operator; Administrators edit them) ----

export const LTE_BAND_NAMES = ['L700', 'L800', 'L1800', 'L2100'] as const;
export const FrequencyPlan = Type.Object(
  {
    operatorId: Type.Integer(),
    operatorName: Type.String(),
    /** NR-ARFCN of the operator's n78 carrier centre (on the 3GPP channel raster). */
    nrArfcn: Type.Integer({ minimum: 620000, maximum: 653333 }),
    nrBandwidthMhz: Type.Integer({ minimum: 10, maximum: 100 }),
    /** EARFCN DL per LTE band the operator owns. */
    lteCarriers: Type.Object(
      {
        L700: Type.Optional(Type.Integer({ minimum: 9210, maximum: 9659 })),
        L800: Type.Optional(Type.Integer({ minimum: 6150, maximum: 6449 })),
        L1800: Type.Optional(Type.Integer({ minimum: 1200, maximum: 1949 })),
        L2100: Type.Optional(Type.Integer({ minimum: 0, maximum: 599 })),
      },
      { additionalProperties: false },
    ),
    updatedAt: Type.String(),
  },
  { additionalProperties: false },
);
export type FrequencyPlan = Static<typeof FrequencyPlan>;
export const FrequencyPlanList = Type.Array(FrequencyPlan);
export const SaveFrequencyPlanRequest = Type.Omit(FrequencyPlan, ['operatorName', 'updatedAt'], { additionalProperties: false });
export type SaveFrequencyPlanRequest = Static<typeof SaveFrequencyPlanRequest>;
