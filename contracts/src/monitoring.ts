import { Type, type Static } from '@sinclair/typebox';
import { fieldLiterals, fieldsOf, Id, listQuery, pageOf } from './common';
import { SiteSharingFields } from './network';

/**
 * Monitoring and parser (specification §3, §7; docs/engines/monitoring.md, docs/engines/monitoring.md#the-site-report). Access: `canMonitor`, except the
 * alarm-hint catalogue's edits and the PM counter import (`canAdminister`).
 *
 * Parser
 * - `GET /api/Parser/GetMoBacthScripts` (the specification's spelling) → `FileResponse`: a zip with
 *   `sites.txt` (every node of the inventory), `sites_<tech>.txt`, one `cmd_<tech>.mos` per technology
 *   and `README.txt` with the `mobatch` command lines; then `File/Download?file=`.
 * - `GET /api/Parser/ParseEricssonLogs?filesPath=<uploadId>[,<uploadId>…]&userId=<own id>` → 200
 *   `ParseResponse` ('Successfully parsed {n} files.'), 400 `{ message }` for an archive that is not a
 *   MoBatch log set (nothing stored), 422 `UnusableLogsResponse` when it holds logs but none could be
 *   read (each file's reasons; nothing stored, no parse recorded), 403 when userId is not the caller,
 *   404 'Upload not found.'. Runs
 *   as a job (progress on the hub); the owner gets a notification with the per-file outcomes.
 * - `GET /api/Parser/GetParseHistory` (ListQuery on ParseHistoryRow) → `{ rows, total }`.
 * - `GET /api/Parser/GetParseReport?id=` → `ParseReport`, 404 when unknown.
 *
 * Monitoring
 * - `GET /api/Monitoring/GetLogsLastImport` → JSON string: the newest logs date (ISO-8601 UTC) of the
 *   nodes' latest logs, or "" when none.
 * - `GET /api/Monitoring/GetFaultManagement` (ListQuery on AlarmRow) → `{ rows, total }`.
 * - `GET /api/Monitoring/GetAlarm?id=` → `AlarmRow` (as the list shows it), 404 when the current operator has no such alarm.
 * - `GET /api/Monitoring/GetFaultManagementSummary` (ListQuery on FaultSummaryRow) → `{ rows, total }`.
 * - `GET /api/Monitoring/GetConfigurationManagementSummary` (ListQuery on ConfigurationSummaryRow).
 * - `GET /api/Monitoring/GetOverallSiteSummary` (ListQuery on OverallSiteSummaryRow).
 * - `GET /api/Monitoring/GetSiteList?query=` → site options (docs/engines/network.md#the-import), at most 20.
 * - `GET /api/Monitoring/GetSiteReport?siteId=` → `SiteReport`; 404 for a site neither the inventory
 *   nor the logs know.
 * - `GET /api/Monitoring/GetSiteReportExcel?siteId=` → `FileResponse` (one sheet per table); 599
 *   `{ message: 'No logs parsed yet for site {id}.' }` when the site has no parsed log.
 * - `GET /api/Monitoring/GetSiteReportEmail?siteId=&userId=<own id>` → `{ message: 'Report sent to {email}.' }`
 *   (the same workbook, mailed to the caller); 599 as above; 403 when userId is not the caller.
 * - `POST /api/Monitoring/AcknowledgeAlarm` `AcknowledgeAlarmRequest` → `{ message }`.
 * - `POST /api/Monitoring/UnacknowledgeAlarm` `AlarmIdRequest` → `{ message }`.
 * - `GET /api/Monitoring/GetAlarmHints` → `AlarmHint[]` (by name).
 * - `POST /api/Monitoring/SaveAlarmHint` `SaveAlarmHintRequest` → `{ message }` (Administrators).
 * - `POST /api/Monitoring/DeleteAlarmHint` `AlarmNameRequest` → `{ message }` (Administrators).
 * - `GET /api/Monitoring/ImportPerformanceCounters?filePath=<uploadId>` (Administrators; a `.zip` of
 *   TS 32.435 measCollecFile XML files) → `{ message, nodes }`.
 * - `GET /api/Monitoring/GetPerformanceLastImport` → JSON string (ISO-8601 UTC) or "".
 */

const Text = Type.Union([Type.String(), Type.Null()]);
const DateValue = Type.Union([Type.String({ description: 'ISO-8601 UTC' }), Type.Null()]);

export const MONITORING_MESSAGES = {
  parsed: (n: number) => `Successfully parsed ${n} files.`,
  logsDateUnavailable: 'Logs date unavailable!',
  reportSent: (email: string) => `Report sent to ${email}.`,
  noLogsForSite: (siteId: string) => `No logs parsed yet for site ${siteId}.`,
} as const;

/**
 * OK / NOK, or N/A when nothing is known (an unreachable node, no PM counters), or 'Incomplete log' when
 * the node's newest log stopped inside the table the status is read from (neither OK nor NOK: the
 * previous rows are kept, marked stale, until a complete log comes).
 */
export const INCOMPLETE_LOG = 'Incomplete log';
export const STATUS_VALUES = ['OK', 'NOK', 'N/A', INCOMPLETE_LOG] as const;
export type StatusValue = (typeof STATUS_VALUES)[number];

/** Identification fields every monitoring summary starts with (specification §3). */
const identity = {
  siteId: Text,
  siteName: Text,
  nodeName: Type.String(),
  tech: Text,
  commissioningDate: DateValue,
  currentStatus: Text,
};

/** Beyond the specification: whether the inventory knows the node, and what the log said about reaching it. */
const logFacts = {
  /** When the node's latest log was taken (its first header), ISO-8601 UTC. */
  logsDate: DateValue,
  /** '' or what a user should know: 'Not in inventory', 'Unreachable', or both joined by '; '. */
  remarks: Type.String(),
};

/** Specification §3 Alarm row, plus the row key, the acknowledgement, the hint and the source. */
export const AlarmRow = Type.Object(
  {
    id: Type.Integer(),
    siteId: Text,
    siteName: Text,
    nodeName: Type.String(),
    tech: Type.String(),
    alarmDatetime: DateValue,
    severity: Type.String(),
    AlarmName: Type.String(),
    moName: Type.String(),
    info: Type.String(),
    /** 'Yes' when acknowledged in the console or on the node, else 'No'. */
    acknowledged: Type.String(),
    ackNote: Text,
    /** The console user, or the node's Operator column for alarms acknowledged on the node. */
    ackBy: Text,
    ackAt: DateValue,
    /** The remediation hint of the catalogue for AlarmName, if any. */
    hint: Text,
    /** `archive › file:line`. */
    source: Type.String(),
    /** 'Yes' when kept from an older log because the node's newest one stopped inside its alarm table, else 'No'. */
    stale: Type.String(),
  },
  { additionalProperties: false },
);
export type AlarmRow = Static<typeof AlarmRow>;
export const ALARM_FIELDS = fieldsOf(AlarmRow);

export const FaultSummaryRow = Type.Object(
  { ...identity, alarmStatus: Type.String(), alarmCount: Type.Integer(), alarmComments: Type.String(), ...logFacts },
  { additionalProperties: false },
);
export type FaultSummaryRow = Static<typeof FaultSummaryRow>;
export const FAULT_SUMMARY_FIELDS = fieldsOf(FaultSummaryRow);

export const ConfigurationSummaryRow = Type.Object(
  {
    ...identity,
    radioStatus: Type.String(),
    radioComments: Type.String(),
    coreStatus: Type.String(),
    coreComments: Type.String(),
    ...logFacts,
  },
  { additionalProperties: false },
);
export type ConfigurationSummaryRow = Static<typeof ConfigurationSummaryRow>;
export const CONFIGURATION_SUMMARY_FIELDS = fieldsOf(ConfigurationSummaryRow);

/** One row per site (nodes whose site is unknown are grouped under their node name). */
export const OverallSiteSummaryRow = Type.Object(
  {
    siteId: Type.String(),
    siteName: Text,
    commissioningDate: DateValue,
    currentStatus: Text,
    overallSiteStatus: Type.String(),
    performanceStatus: Type.String(),
    alarmStatus: Type.String(),
    radioStatus: Type.String(),
    coreStatus: Type.String(),
    /** Not a column of the list (neither sorted nor filtered on): the row's 'shared with X' mark. */
    ...SiteSharingFields,
  },
  { additionalProperties: false },
);
export type OverallSiteSummaryRow = Static<typeof OverallSiteSummaryRow>;
export const OVERALL_SITE_SUMMARY_FIELDS = fieldsOf(OverallSiteSummaryRow, ['sharedWith', 'shareMode']);

// The outcome and tab names are fixed lists too.
const literals = fieldLiterals;

export const AlarmQuery = listQuery(literals(ALARM_FIELDS));
export type AlarmQuery = Static<typeof AlarmQuery>;
export const AlarmPage = pageOf(AlarmRow);
export type AlarmPage = Static<typeof AlarmPage>;
export const FaultSummaryQuery = listQuery(literals(FAULT_SUMMARY_FIELDS));
export type FaultSummaryQuery = Static<typeof FaultSummaryQuery>;
export const FaultSummaryPage = pageOf(FaultSummaryRow);
export type FaultSummaryPage = Static<typeof FaultSummaryPage>;
export const ConfigurationSummaryQuery = listQuery(literals(CONFIGURATION_SUMMARY_FIELDS));
export type ConfigurationSummaryQuery = Static<typeof ConfigurationSummaryQuery>;
export const ConfigurationSummaryPage = pageOf(ConfigurationSummaryRow);
export type ConfigurationSummaryPage = Static<typeof ConfigurationSummaryPage>;
export const OverallSiteSummaryQuery = listQuery(literals(OVERALL_SITE_SUMMARY_FIELDS));
export type OverallSiteSummaryQuery = Static<typeof OverallSiteSummaryQuery>;
export const OverallSiteSummaryPage = pageOf(OverallSiteSummaryRow);
export type OverallSiteSummaryPage = Static<typeof OverallSiteSummaryPage>;

// ---- Parser ----

/** Upload ids from File/Upload or File/UploadMultiple (`.zip`), comma-separated, at most 20. */
export const ParseQuery = Type.Object(
  {
    filesPath: Type.String({ minLength: 1, maxLength: 2100, pattern: '^[^,]+(,[^,]+){0,19}$' }),
    userId: Id,
  },
  { additionalProperties: false },
);
export type ParseQuery = Static<typeof ParseQuery>;

export const FILE_OUTCOMES = ['parsed', 'unreachable', 'not in inventory', 'failed', 'ignored'] as const;
export type FileOutcome = (typeof FILE_OUTCOMES)[number];

/** A problem the parser reported: the 1-based line in its file and why. */
export const ParseProblem = Type.Object({ line: Type.Integer(), reason: Type.String(), command: Text }, { additionalProperties: false });
export type ParseProblem = Static<typeof ParseProblem>;

/**
 * What became of one file of an archive. `parsed`: a node log of the inventory, read; `not in inventory`:
 * read and kept, but the inventory has no such node; `unreachable`: the log (or mobatch_result.txt) says
 * the node was not reached; `failed`: nothing could be read from it; `ignored`: not a node log
 * (directories, notes, mobatch_result.txt itself).
 */
export const ParsedFile = Type.Object(
  {
    archive: Type.String(),
    file: Type.String(),
    node: Text,
    siteId: Text,
    outcome: literals(FILE_OUTCOMES),
    alarms: Type.Integer({ minimum: 0 }),
    /** Problems of this file, in all. */
    problemCount: Type.Integer({ minimum: 0 }),
    /** The first problems (at most 50 per file), with their lines. */
    problems: Type.Array(ParseProblem),
    /** For unreachable nodes: the line that said so; for a log cut inside its alarm or st table: 'Incomplete log: line N: why'. */
    reason: Text,
  },
  { additionalProperties: false },
);
export type ParsedFile = Static<typeof ParsedFile>;

/** 422 of ParseEricssonLogs: the archives hold logs, but none the parser could read; nothing is stored. */
export const UnusableLogsResponse = Type.Object(
  {
    message: Type.String(),
    /** Every file with its outcome and first problems (why it could not be read). */
    files: Type.Array(ParsedFile),
  },
  { additionalProperties: false },
);
export type UnusableLogsResponse = Static<typeof UnusableLogsResponse>;

export const ParseCounts = Type.Object(
  {
    files: Type.Integer({ minimum: 0 }),
    parsed: Type.Integer({ minimum: 0 }),
    unreachable: Type.Integer({ minimum: 0 }),
    notInInventory: Type.Integer({ minimum: 0 }),
    failed: Type.Integer({ minimum: 0 }),
    problems: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type ParseCounts = Static<typeof ParseCounts>;

export const ParseReport = Type.Object(
  {
    id: Type.Integer(),
    parsedAt: Type.String(),
    /** "Firstname Lastname", or null for the demo data and command-line parses. */
    parsedBy: Text,
    archives: Type.Array(Type.String()),
    logsDate: DateValue,
    counts: ParseCounts,
    files: Type.Array(ParsedFile),
  },
  { additionalProperties: false },
);
export type ParseReport = Static<typeof ParseReport>;

/** 'Successfully parsed {n} files.' where n = counts.parsed + counts.notInInventory. */
export const ParseResponse = Type.Object(
  { message: Type.String(), parseId: Type.Integer(), logsDate: DateValue, counts: ParseCounts },
  { additionalProperties: false },
);
export type ParseResponse = Static<typeof ParseResponse>;

export const ParseHistoryRow = Type.Object(
  {
    id: Type.Integer(),
    parsedAt: Type.String(),
    parsedBy: Text,
    archives: Type.String(),
    logsDate: DateValue,
    files: Type.Integer(),
    parsed: Type.Integer(),
    unreachable: Type.Integer(),
    notInInventory: Type.Integer(),
    failed: Type.Integer(),
    problems: Type.Integer(),
  },
  { additionalProperties: false },
);
export type ParseHistoryRow = Static<typeof ParseHistoryRow>;
export const PARSE_HISTORY_FIELDS = fieldsOf(ParseHistoryRow);
export const ParseHistoryQuery = listQuery(literals(PARSE_HISTORY_FIELDS));
export type ParseHistoryQuery = Static<typeof ParseHistoryQuery>;
export const ParseHistoryPage = pageOf(ParseHistoryRow);
export type ParseHistoryPage = Static<typeof ParseHistoryPage>;

export const ParseReportQuery = Type.Object({ id: Id }, { additionalProperties: false });
export type ParseReportQuery = Static<typeof ParseReportQuery>;

// ---- Site report ----

/** Site ids are inventory ids (`LX0001`) or, for nodes outside it, what the site rule made of the name. */
export const SiteIdText = Type.String({ minLength: 1, maxLength: 100 });

export const SiteReportQuery = Type.Object({ siteId: SiteIdText }, { additionalProperties: false });
export type SiteReportQuery = Static<typeof SiteReportQuery>;
export const SiteReportEmailQuery = Type.Object({ siteId: SiteIdText, userId: Id }, { additionalProperties: false });
export type SiteReportEmailQuery = Static<typeof SiteReportEmailQuery>;

export const REPORT_FILTER_TYPES = ['multiselect', 'textField', 'dropdown', 'checkbox'] as const;

/** One column of a report table (specification §3: name, label, display options, filterType). */
export const ReportColumn = Type.Object(
  {
    name: Type.String(),
    label: Type.String(),
    options: Type.Object(
      {
        display: Type.Boolean(),
        filter: Type.Boolean(),
        sort: Type.Boolean(),
        /** How the browser renders it: plain text, a date, a number, or an OK/NOK status tag. */
        kind: literals(['text', 'date', 'number', 'status']),
      },
      { additionalProperties: false },
    ),
    filterType: literals(REPORT_FILTER_TYPES),
  },
  { additionalProperties: false },
);
export type ReportColumn = Static<typeof ReportColumn>;

/** The tabs of the site report page, in order (specification route table). */
export const SITE_REPORT_TABS = [
  'Summary',
  'RET Information',
  'Alarms',
  'Configuration Check 2G',
  'Configuration Check 3G',
  'Configuration Check 4G',
  'Configuration Check 5G',
  'Configuration Check NBIoT',
] as const;
export type SiteReportTab = (typeof SITE_REPORT_TABS)[number];

export const ReportTable = Type.Object(
  {
    TableName: Type.String(),
    /** The tab it is shown on. */
    TabName: literals(SITE_REPORT_TABS),
    TableStructure: Type.Array(ReportColumn),
    TableData: Type.Array(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Null()]))),
  },
  { additionalProperties: false },
);
export type ReportTable = Static<typeof ReportTable>;

/**
 * Tables in tab order: Summary → 'Site Summary', 'Commissioning Information'; RET Information → 'RET
 * Information'; Alarms → 'Alarms'; each Configuration Check tab → 'Configuration Check <tech>'. Every
 * tab has its table(s), empty when there is nothing to show.
 */
export const SiteReport = Type.Object(
  {
    siteId: Type.String(),
    siteName: Text,
    // Always answered by the route (monitoring/report.ts adds them); optional for the report builder, which knows no shares.
    sharedWith: Type.Optional(SiteSharingFields.sharedWith),
    shareMode: Type.Optional(SiteSharingFields.shareMode),
    logsDate: DateValue,
    tables: Type.Array(ReportTable),
  },
  { additionalProperties: false },
);
export type SiteReport = Static<typeof SiteReport>;

// ---- Acknowledgements, hints, performance ----

export const AlarmIdRequest = Type.Object({ alarmId: Id }, { additionalProperties: false });
/** One alarm by id: a Fault Management link (`?alarm=<id>`) opens it. */
export const AlarmRecordQuery = Type.Object({ id: Id }, { additionalProperties: false });
export type AlarmRecordQuery = Static<typeof AlarmRecordQuery>;
export type AlarmIdRequest = Static<typeof AlarmIdRequest>;
export const AcknowledgeAlarmRequest = Type.Object({ alarmId: Id, note: Type.String({ minLength: 1, maxLength: 1000 }) }, { additionalProperties: false });
export type AcknowledgeAlarmRequest = Static<typeof AcknowledgeAlarmRequest>;

export const AlarmHint = Type.Object(
  { alarmName: Type.String(), hint: Type.String(), updatedBy: Text, updatedAt: Type.String() },
  { additionalProperties: false },
);
export type AlarmHint = Static<typeof AlarmHint>;
export const AlarmHintList = Type.Array(AlarmHint);
export type AlarmHintList = Static<typeof AlarmHintList>;
export const SaveAlarmHintRequest = Type.Object(
  { alarmName: Type.String({ minLength: 1, maxLength: 200 }), hint: Type.String({ minLength: 1, maxLength: 2000 }) },
  { additionalProperties: false },
);
export type SaveAlarmHintRequest = Static<typeof SaveAlarmHintRequest>;
export const AlarmNameRequest = Type.Object({ alarmName: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });
export type AlarmNameRequest = Static<typeof AlarmNameRequest>;

export const PerformanceImportResponse = Type.Object(
  {
    message: Type.String(),
    /** Nodes judged OK or NOK by their KPI counters. */
    nodes: Type.Integer({ minimum: 0 }),
    /** Nodes the files name; those without KPI counters are stored as N/A with the reason. */
    nodesRead: Type.Integer({ minimum: 0 }),
    /** measValue elements read (one measured object, one granularity period). */
    measValues: Type.Integer({ minimum: 0 }),
    /** Counter values in them. */
    counterValues: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type PerformanceImportResponse = Static<typeof PerformanceImportResponse>;
