import { Type, type Static } from '@sinclair/typebox';
import { Id } from './common';
import { SiteIdText } from './monitoring';

/**
 * The live alarm console, site search, reports to a list and daily digests (issue 47; docs/engines/monitoring.md).
 * Access: `canMonitor`; the digest schedules are the Administrators' (`canAdminister`). Every read is the
 * caller's current operator's (docs/tenancy.md).
 *
 * - `GET /api/Monitoring/GetAlarmCounts` → `AlarmCounts`: active alarms per severity, acknowledged, and the
 *   alarms new and cleared since each node's previous log.
 * - `POST /api/Monitoring/AcknowledgeAlarms` `AcknowledgeAlarmsRequest` → `{ message }`: one note for up to
 *   100 alarms, all or none (404 when one is not found).
 * - `GET /api/Monitoring/GetAlarmChanges?siteId=` → `AlarmChange[]`: per node, what its latest log shows
 *   that the one before did not ('new') and what it no longer shows ('cleared'); the whole operator without siteId.
 * - `GET /api/Monitoring/SearchSites?text=` → `SiteSearchHit[]`: at most 20 sites whose id or name contains the text.
 * - `GET /api/Monitoring/GetReportRecipients` → `ReportRecipient[]`: the active users of the operator.
 * - `POST /api/Monitoring/SendSiteReport` `SendSiteReportRequest` → `{ message }`: the site report mailed to
 *   each listed user of the operator with a summary in the body; shares the per-user mail limit (429).
 * - `GET /api/Monitoring/GetDigestSchedules` → `DigestSchedule[]`: one row per project of the operator.
 * - `PUT /api/Monitoring/SaveDigestSchedule` `SaveDigestScheduleRequest` → `{ message }`.
 * - `DELETE /api/Monitoring/DeleteDigestSchedule` `ProjectIdRequest` → `{ message }`.
 * - `POST /api/Monitoring/SendDigestNow` `ProjectIdRequest` → `{ message, jobId }`: queues the digest at once.
 */

export const ALARM_CONSOLE_MESSAGES = {
  acknowledged: (n: number) => `${n} ${n === 1 ? 'alarm' : 'alarms'} acknowledged.`,
  alarmsNotFound: (n: number) => `${n} of the selected ${n === 1 ? 'alarm was' : 'alarms were'} not found: refresh the list and try again.`,
  blankNote: 'Note is required.',
  duplicateIds: 'Each alarm may be listed once.',
  notRecipients: (n: number) => `${n} of the recipients ${n === 1 ? 'is not a user' : 'are not users'} of this operator.`,
  reportSentTo: (n: number) => `Report sent to ${n} ${n === 1 ? 'recipient' : 'recipients'}.`,
  projectNotFound: 'Project not found.',
  scheduleSaved: (project: string, hour: number) => `Daily digest of ${project} scheduled at ${String(hour).padStart(2, '0')}:00 UTC.`,
  scheduleDeleted: 'Daily digest removed.',
  noSchedule: 'This project has no daily digest.',
  digestQueued: 'The digest is being sent.',
  digestSent: (project: string, n: number) => `Site-status digest of ${project} sent to ${n} ${n === 1 ? 'recipient' : 'recipients'}.`,
} as const;

export const SEVERITIES = ['Critical', 'Major', 'Minor', 'Warning'] as const;

export const AlarmCounts = Type.Object(
  {
    Critical: Type.Integer(),
    Major: Type.Integer(),
    Minor: Type.Integer(),
    Warning: Type.Integer(),
    acknowledged: Type.Integer(),
    total: Type.Integer(),
    newSinceLastLog: Type.Integer(),
    clearedSinceLastLog: Type.Integer(),
  },
  { additionalProperties: false },
);
export type AlarmCounts = Static<typeof AlarmCounts>;

const Note = Type.String({ minLength: 1, maxLength: 1000 });

export const AcknowledgeAlarmsRequest = Type.Object({ alarmIds: Type.Array(Id, { minItems: 1, maxItems: 100 }), note: Note }, { additionalProperties: false });
export type AcknowledgeAlarmsRequest = Static<typeof AcknowledgeAlarmsRequest>;

export const AlarmChangesQuery = Type.Object({ siteId: Type.Optional(SiteIdText) }, { additionalProperties: false });
export type AlarmChangesQuery = Static<typeof AlarmChangesQuery>;

const Nullable = Type.Union([Type.String(), Type.Null()]);
export const AlarmChange = Type.Object(
  {
    nodeName: Type.String(),
    siteId: Nullable,
    change: Type.Union([Type.Literal('new'), Type.Literal('cleared')]),
    severity: Type.String(),
    AlarmName: Type.String(),
    moName: Type.String(),
    alarmDatetime: Nullable,
    /** The node's latest log, and the one before it that it is compared with (ISO-8601 UTC). */
    logsDate: Nullable,
    previousLogsDate: Nullable,
  },
  { additionalProperties: false },
);
export type AlarmChange = Static<typeof AlarmChange>;
export const AlarmChangeList = Type.Array(AlarmChange);

export const SiteSearchQuery = Type.Object({ text: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });
export type SiteSearchQuery = Static<typeof SiteSearchQuery>;
export const SiteSearchHit = Type.Object({ siteId: Type.String(), siteName: Nullable, overallSiteStatus: Nullable }, { additionalProperties: false });
export type SiteSearchHit = Static<typeof SiteSearchHit>;
export const SiteSearchHits = Type.Array(SiteSearchHit, { maxItems: 20 });

export const ReportRecipient = Type.Object({ id: Type.Integer(), name: Type.String(), email: Type.String() }, { additionalProperties: false });
export type ReportRecipient = Static<typeof ReportRecipient>;
export const ReportRecipientList = Type.Array(ReportRecipient);

const UserIds = Type.Array(Id, { minItems: 1, maxItems: 50 });
export const SendSiteReportRequest = Type.Object({ siteId: SiteIdText, userIds: UserIds }, { additionalProperties: false });
export type SendSiteReportRequest = Static<typeof SendSiteReportRequest>;

export const DigestSchedule = Type.Object(
  {
    projectId: Type.Integer(),
    projectName: Type.String(),
    /** null: the project has no digest. */
    hour: Type.Union([Type.Integer(), Type.Null()]),
    userIds: Type.Array(Type.Integer()),
    lastSentOn: Nullable,
  },
  { additionalProperties: false },
);
export type DigestSchedule = Static<typeof DigestSchedule>;
export const DigestScheduleList = Type.Array(DigestSchedule);

export const SaveDigestScheduleRequest = Type.Object(
  { projectId: Id, hour: Type.Integer({ minimum: 0, maximum: 23 }), userIds: UserIds },
  { additionalProperties: false },
);
export type SaveDigestScheduleRequest = Static<typeof SaveDigestScheduleRequest>;
export const ProjectIdRequest = Type.Object({ projectId: Id }, { additionalProperties: false });
export type ProjectIdRequest = Static<typeof ProjectIdRequest>;
export const DigestQueuedResponse = Type.Object({ message: Type.String(), jobId: Type.String() }, { additionalProperties: false });
