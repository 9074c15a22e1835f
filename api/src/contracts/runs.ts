import { Type, type Static } from '@sinclair/typebox';
import { fieldLiterals, Id, listQuery, pageOf } from './common';

/**
 * Planning, validation and optimisation runs (specification §3, §7, §8; DESIGN §3, §7.4). Every run is
 * a job (progress on the hub, a notification when done) and a row of its history; its workbook stays
 * downloadable from the history.
 *
 * A run answers `RunResponse`: `{ file, message?, runId, summary, preview }` when it wrote a workbook
 * (download it with `File/Download?file=`), `{ message, runId, summary, preview }` when it found
 * nothing to write. The page shows `summary` (counts per verdict) and `preview` (the first rows), so a
 * user sees the answer without opening Excel. Refusals: 400 `{ message }` (bad input, nothing
 * recorded), 404 (unknown site or upload), 599 `{ message }` (a warning: e.g. no data for the site).
 *
 * Histories (`Parameters/GetPlanningHistory`, `Validation/GetCpichValidationHistory`,
 * `Validation/GetNbrRelationsValidationHistory`, `Optimization/GetNbrRelationsOptimizationHistory`, and
 * the RAN-share and health-check histories) take `RunHistoryQuery` and answer `{ rows, total }`, newest
 * first by default. The `Get…Export` routes take the run's id and answer `FileResponse` `{ file }`
 * (a fresh download of the run's workbook for the caller), 404 `Run not found.` / `This run has no workbook.`.
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
export const RUN_HISTORY_FIELDS = ['id', 'user', 'sites', 'site', 'files', 'antenna', 'lteBands', 'runDate', 'message', 'outcome'] as const;

export const RunHistoryQuery = listQuery(fieldLiterals(RUN_HISTORY_FIELDS));
export type RunHistoryQuery = Static<typeof RunHistoryQuery>;
export const RunHistoryPage = pageOf(RunHistoryRow);
export type RunHistoryPage = Static<typeof RunHistoryPage>;

/** The export routes' parameters, named as the specification names them. */
export const ParameterPlanningExportQuery = Type.Object({ parameterPlanningId: Id }, { additionalProperties: false });
export const CpichValidationExportQuery = Type.Object({ cpichValidationId: Id }, { additionalProperties: false });
export const NbrRelationsValidationExportQuery = Type.Object({ nbrRelationsValidationId: Id }, { additionalProperties: false });
export const NbrRelationsOptimizationExportQuery = Type.Object({ nbrRelationsOptimizationId: Id }, { additionalProperties: false });
/** For the histories the specification does not name (RAN share, health checks). */
export const RunExportQuery = Type.Object({ runId: Id }, { additionalProperties: false });

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
