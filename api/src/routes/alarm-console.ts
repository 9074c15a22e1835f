import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LIMITS, limitKeys } from '../auth/limits';
import {
  AcknowledgeAlarmsRequest,
  ALARM_CONSOLE_MESSAGES,
  AlarmChangeList,
  AlarmChangesQuery,
  AlarmCounts,
  DigestQueuedResponse,
  DigestScheduleList,
  ErrorResponse,
  MessageResponse,
  ProjectIdRequest,
  ReportRecipientList,
  SaveDigestScheduleRequest,
  SendSiteReportRequest,
  SiteSearchHits,
  SiteSearchQuery,
} from 'contracts';
import { tooMany } from '../http/too-many';
import { acknowledgeAlarms, alarmCounts, listAlarmChanges, reportRecipients, searchSites } from '../monitoring/alarm-console';
import { announceAlarmsChanged } from '../monitoring/alarm-events';
import {
  DIGEST_KIND,
  listDigestSchedules,
  recipientsOf,
  registerDigestJobs,
  REPORT_LIST_KIND,
  type DigestParams,
  type SiteReportListParams,
} from '../monitoring/digests';
import { loadSiteData, siteNotFound } from '../monitoring/report';
import { answerOf, fail, sessionOf, userIdOf } from './support';

/**
 * The live alarm console, site search, reports to a list and daily digests (issue 47;
 * contracts/alarm-console.ts). Reads and writes are the caller's current operator's (docs/tenancy.md):
 * a request without one reads nothing and may not write (409).
 */
export const alarmConsoleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  registerDigestJobs(app);
  const tags = ['monitoring'];
  const { db } = app.services;
  const security = [{ bearer: [] }];
  const denied = { 401: ErrorResponse, 403: ErrorResponse };
  const NO_OPERATOR = 'You have no current operator: choose one in Settings first.';
  const operatorOf = (request: Parameters<typeof sessionOf>[0]) => sessionOf(request).dataOperatorId;

  app.get(
    '/Monitoring/GetAlarmCounts',
    {
      schema: {
        summary: "Alarms of the nodes' latest logs per severity, acknowledged, and new / cleared since each node's previous log",
        tags,
        security,
        response: { 200: AlarmCounts, ...denied },
      },
      config: { access: 'canMonitor' },
    },
    async () => alarmCounts(db),
  );

  app.post(
    '/Monitoring/AcknowledgeAlarms',
    {
      schema: {
        summary: 'Acknowledge up to 100 alarms with one note, all or none',
        tags,
        security,
        body: AcknowledgeAlarmsRequest,
        response: { 200: MessageResponse, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, ...denied },
      },
      config: { access: 'canMonitor' },
    },
    async (request, reply) => {
      const note = request.body.note.trim();
      if (note === '') return fail(reply, 400, ALARM_CONSOLE_MESSAGES.blankNote);
      const ids = request.body.alarmIds;
      if (new Set(ids).size !== ids.length) return fail(reply, 400, ALARM_CONSOLE_MESSAGES.duplicateIds);
      if (operatorOf(request) === null) return fail(reply, 409, NO_OPERATOR);
      const userId = userIdOf(request);
      const user = await db.selectFrom('users').select(['firstname', 'lastname']).where('id', '=', userId).executeTakeFirstOrThrow();
      const { missing } = await acknowledgeAlarms(db, ids, {
        note,
        by: userId,
        byName: `${user.firstname} ${user.lastname}`,
        at: new Date(app.auth.clock()).toISOString(),
      });
      if (missing > 0) return fail(reply, 404, ALARM_CONSOLE_MESSAGES.alarmsNotFound(missing));
      await announceAlarmsChanged(app, { reason: 'acknowledgement', parseId: null });
      return { message: ALARM_CONSOLE_MESSAGES.acknowledged(ids.length) };
    },
  );

  app.get(
    '/Monitoring/GetAlarmChanges',
    {
      schema: {
        summary: "Per node, the alarms its latest log shows that the one before did not (new) and those it no longer shows (cleared); one site's with siteId",
        tags,
        security,
        querystring: AlarmChangesQuery,
        response: { 200: AlarmChangeList, 400: ErrorResponse, ...denied },
      },
      config: { access: 'canMonitor' },
    },
    async (request) => listAlarmChanges(db, request.query.siteId),
  );

  app.get(
    '/Monitoring/SearchSites',
    {
      schema: {
        summary: 'The top bar site search: at most 20 sites whose id or name contains the text (any case), ids starting with it first',
        tags,
        security,
        querystring: SiteSearchQuery,
        response: { 200: SiteSearchHits, 400: ErrorResponse, ...denied },
      },
      config: { access: 'canMonitor' },
    },
    async (request) => searchSites(db, request.query.text),
  );

  app.get(
    '/Monitoring/GetReportRecipients',
    {
      schema: {
        summary: 'The active users of the current operator, whom a site report may be mailed to',
        tags,
        security,
        response: { 200: ReportRecipientList, ...denied },
      },
      config: { access: 'canMonitor' },
    },
    async () => reportRecipients(db),
  );

  app.post(
    '/Monitoring/SendSiteReport',
    {
      schema: {
        summary:
          "The site report's workbook mailed to each listed user of the operator, its status and alarm counts in the body; counts against the caller's site report mail limit (429). 599 when no log of the site was parsed",
        tags,
        security,
        body: SendSiteReportRequest,
        response: { 200: MessageResponse, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse, 599: ErrorResponse, ...denied },
      },
      config: { access: 'canMonitor' },
    },
    async (request, reply) => {
      const operatorId = operatorOf(request);
      if (operatorId === null) return fail(reply, 409, NO_OPERATOR);
      const userIds = [...new Set(request.body.userIds)];
      const recipients = await recipientsOf(db, operatorId, userIds);
      if (recipients.length !== userIds.length) return fail(reply, 400, ALARM_CONSOLE_MESSAGES.notRecipients(userIds.length - recipients.length));
      // Checked before the limit counts: a site that is not there costs no mail.
      if (!(await loadSiteData(db, request.body.siteId))) return fail(reply, 404, siteNotFound(request.body.siteId));
      const userId = userIdOf(request);
      const now = app.auth.clock();
      const mailKey = limitKeys.siteReportMail(userId);
      const wait = await app.auth.limits.retryAfter([mailKey], now);
      if (wait !== null) return tooMany(reply, wait);
      await app.auth.limits.count(mailKey, LIMITS.siteReportMailsPerUser, now);
      return answerOf(reply, await app.jobs.run<SiteReportListParams>(REPORT_LIST_KIND, userId, { siteId: request.body.siteId, ownerId: userId, recipients }));
    },
  );

  // ---- Daily digests (Administrators) ----

  app.get(
    '/Monitoring/GetDigestSchedules',
    {
      schema: {
        summary: 'Every project of the current operator with its daily site-status digest (hour null: none)',
        tags,
        security,
        response: { 200: DigestScheduleList, ...denied },
      },
      config: { access: 'canAdminister' },
    },
    async (request) => {
      const operatorId = operatorOf(request);
      return operatorId === null ? [] : listDigestSchedules(db, operatorId);
    },
  );

  /** A project of the caller's current operator, or null (another operator's project is not found, docs/tenancy.md). */
  const projectOf = async (operatorId: number, projectId: number) =>
    db.selectFrom('projects').select(['id', 'name']).where('id', '=', projectId).where('operator_id', '=', operatorId).executeTakeFirst();

  app.put(
    '/Monitoring/SaveDigestSchedule',
    {
      schema: {
        summary: "Schedule a project's daily site-status digest at an hour (UTC) for users of the operator (Administrators)",
        tags,
        security,
        body: SaveDigestScheduleRequest,
        response: { 200: MessageResponse, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, ...denied },
      },
      config: { access: 'canAdminister' },
    },
    async (request, reply) => {
      const operatorId = operatorOf(request);
      if (operatorId === null) return fail(reply, 409, NO_OPERATOR);
      const project = await projectOf(operatorId, request.body.projectId);
      if (!project) return fail(reply, 404, ALARM_CONSOLE_MESSAGES.projectNotFound);
      const userIds = [...new Set(request.body.userIds)].sort((a, b) => a - b);
      const recipients = await recipientsOf(db, operatorId, userIds);
      if (recipients.length !== userIds.length) return fail(reply, 400, ALARM_CONSOLE_MESSAGES.notRecipients(userIds.length - recipients.length));
      const values = {
        hour: request.body.hour,
        recipients: JSON.stringify(userIds),
        created_by: userIdOf(request),
        updated_at: new Date(app.auth.clock()).toISOString(),
      };
      await db
        .insertInto('monitoring_digest_schedules')
        .values({ project_id: project.id, last_sent_on: null, ...values })
        .onConflict((oc) => oc.columns(['operator_id', 'project_id']).doUpdateSet(values))
        .execute();
      return { message: ALARM_CONSOLE_MESSAGES.scheduleSaved(project.name, request.body.hour) };
    },
  );

  app.delete(
    '/Monitoring/DeleteDigestSchedule',
    {
      schema: {
        summary: "Remove a project's daily digest (Administrators)",
        tags,
        security,
        body: ProjectIdRequest,
        response: { 200: MessageResponse, 404: ErrorResponse, ...denied },
      },
      config: { access: 'canAdminister' },
    },
    async (request, reply) => {
      const result = await db.deleteFrom('monitoring_digest_schedules').where('project_id', '=', request.body.projectId).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return fail(reply, 404, ALARM_CONSOLE_MESSAGES.noSchedule);
      return { message: ALARM_CONSOLE_MESSAGES.scheduleDeleted };
    },
  );

  app.post(
    '/Monitoring/SendDigestNow',
    {
      schema: {
        summary: "Queue a project's digest now, besides its daily one; follow it on the job dashboard (Administrators)",
        tags,
        security,
        body: ProjectIdRequest,
        response: { 200: DigestQueuedResponse, 404: ErrorResponse, ...denied },
      },
      config: { access: 'canAdminister' },
    },
    async (request, reply) => {
      const schedule = await db
        .selectFrom('monitoring_digest_schedules')
        .select('project_id')
        .where('project_id', '=', request.body.projectId)
        .executeTakeFirst();
      if (!schedule) return fail(reply, 404, ALARM_CONSOLE_MESSAGES.noSchedule);
      const userId = userIdOf(request);
      const job = await app.jobs.enqueue<DigestParams>(DIGEST_KIND, userId, { projectId: schedule.project_id, ownerId: userId });
      return { message: ALARM_CONSOLE_MESSAGES.digestQueued, jobId: job.id };
    },
  );
};
