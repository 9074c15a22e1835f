import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LIMITS, limitKeys } from '../auth/limits';
import {
  AcknowledgeAlarmRequest,
  AlarmHintList,
  AlarmIdRequest,
  AlarmNameRequest,
  AlarmPage,
  AlarmQuery,
  AlarmRecordQuery,
  AlarmRow,
  ConfigurationSummaryPage,
  ConfigurationSummaryQuery,
  ErrorResponse,
  FaultSummaryPage,
  FaultSummaryQuery,
  FileResponse,
  ImportQuery,
  LastImportDate,
  MessageResponse,
  OverallSiteSummaryPage,
  OverallSiteSummaryQuery,
  PerformanceImportResponse,
  SaveAlarmHintRequest,
  SiteReport,
  SiteReportEmailQuery,
  SiteReportQuery,
} from 'contracts';
import { FileServiceError, resolveUpload } from '../files';
import { tooMany } from '../http/too-many';
import { deleteAlarmHint, listAlarmHints, saveAlarmHint } from '../monitoring/hints';
import { PERFORMANCE_KIND, registerPerformanceJobs, type PerformanceImportParams } from '../monitoring/performance';
import {
  findAlarm,
  lastLogsDate,
  listAlarms,
  listConfigurationSummary,
  listFaultSummary,
  listOverallSiteSummary,
  PERFORMANCE_STAMP,
} from '../monitoring/queries';
import { loadSiteReport, siteNotFound } from '../monitoring/report';
import { REPORT_EMAIL_KIND, REPORT_KIND, registerReportJobs, type SiteReportEmailParams, type SiteReportParams } from '../monitoring/report-jobs';
import { readStamp } from '../tracking/queries';
import { answerOf, fail, userIdOf } from './support';

export const MONITORING_ROUTE_MESSAGES = {
  alarmNotFound: 'Alarm not found.',
  acknowledged: 'Alarm acknowledged.',
  unacknowledged: 'Acknowledgement removed.',
  notAcknowledged: 'This alarm is not acknowledged in the console.',
  hintSaved: 'Hint saved.',
  hintDeleted: 'Hint deleted.',
  hintNotFound: 'Hint not found.',
  blankName: 'Alarm name is required.',
  blankHint: 'Hint is required.',
  blankNote: 'Note is required.',
  onlyYourself: 'You can only email a report to yourself.',
} as const;

/** Monitoring's query routes (contracts/monitoring.ts, Monitoring/*). */
export const monitoringRoutes: FastifyPluginAsyncTypebox = async (app) => {
  registerReportJobs(app);
  registerPerformanceJobs(app);
  const tags = ['monitoring'];
  const { db } = app.services;
  const dataDir = app.services.config.dataDir;
  const security = [{ bearer: [] }];
  const denied = { 401: ErrorResponse, 403: ErrorResponse };
  const listResponse = { 400: ErrorResponse, ...denied };
  const listHelp = '; page (1-based), size (≤ 100), sort (a field), order (ascend | descend), filters (JSON { field: text }, contains, any case)';

  app.get(
    '/Monitoring/GetFaultManagement',
    {
      schema: {
        summary: `Alarms of the nodes' latest logs, with acknowledgement and hint; newest first by default${listHelp}`,
        tags,
        security,
        querystring: AlarmQuery,
        response: { 200: AlarmPage, ...listResponse },
      },
      config: { access: 'canMonitor' },
    },
    async (request) => listAlarms(db, request.query),
  );
  app.get(
    '/Monitoring/GetAlarm',
    {
      schema: {
        summary:
          "One alarm of the current operator, as the alarm list shows it (a Fault Management link opens it); 404 for another operator's or an unknown id",
        tags,
        security,
        querystring: AlarmRecordQuery,
        response: { 200: AlarmRow, 404: ErrorResponse, ...denied },
      },
      config: { access: 'canMonitor' },
    },
    // findAlarm reads through the operator scope (docs/tenancy.md): another operator's id is not found, like an unknown one.
    async (request, reply) => (await findAlarm(db, request.query.id)) ?? fail(reply, 404, MONITORING_ROUTE_MESSAGES.alarmNotFound),
  );
  app.get(
    '/Monitoring/GetFaultManagementSummary',
    {
      schema: {
        summary: `Fault summary per node (alarmStatus NOK when a Critical or Major alarm is active)${listHelp}`,
        tags,
        security,
        querystring: FaultSummaryQuery,
        response: { 200: FaultSummaryPage, ...listResponse },
      },
      config: { access: 'canMonitor' },
    },
    async (request) => listFaultSummary(db, request.query),
  );
  app.get(
    '/Monitoring/GetConfigurationManagementSummary',
    {
      schema: {
        summary: `Configuration summary per node (radio and core status with comments)${listHelp}`,
        tags,
        security,
        querystring: ConfigurationSummaryQuery,
        response: { 200: ConfigurationSummaryPage, ...listResponse },
      },
      config: { access: 'canMonitor' },
    },
    async (request) => listConfigurationSummary(db, request.query),
  );
  app.get(
    '/Monitoring/GetOverallSiteSummary',
    {
      schema: {
        summary: `One row per site: the worst status of its nodes per area; overall NOK when any part is NOK or a node is unreachable${listHelp}`,
        tags,
        security,
        querystring: OverallSiteSummaryQuery,
        response: { 200: OverallSiteSummaryPage, ...listResponse },
      },
      config: { access: 'canMonitor' },
    },
    async (request) => listOverallSiteSummary(db, request.query),
  );

  const stamp = (url: string, summary: string, read: () => Promise<string | null>) =>
    app.get(
      url,
      { schema: { summary, tags, security, response: { 200: LastImportDate, ...denied } }, config: { access: 'canMonitor' } },
      async (_request, reply) =>
        // A bare string would go out as text/plain; the contract is a JSON string.
        reply.type('application/json; charset=utf-8').send(JSON.stringify((await read()) ?? '')),
    );
  stamp('/Monitoring/GetLogsLastImport', "The newest logs date of the nodes' latest logs (ISO-8601), or an empty string", () => lastLogsDate(db));
  stamp('/Monitoring/GetPerformanceLastImport', 'Date of the last PM counter import (ISO-8601), or an empty string', () => readStamp(db, PERFORMANCE_STAMP));

  // ---- Site report ----

  app.get(
    '/Monitoring/GetSiteReport',
    {
      schema: {
        summary: 'The site report: the tables of every tab (Summary, RET Information, Alarms, Configuration Check 2G … NBIoT)',
        tags,
        security,
        querystring: SiteReportQuery,
        response: { 200: SiteReport, 400: ErrorResponse, 404: ErrorResponse, ...denied },
      },
      config: { access: 'canMonitor' },
    },
    async (request, reply) => {
      const report = await loadSiteReport(db, request.query.siteId);
      if (!report) return fail(reply, 404, siteNotFound(request.query.siteId));
      // The contract's literal unions are built from arrays (`literals`), which the type provider reads as
      // never; the response schema still shapes what is sent.
      return report as never;
    },
  );
  const warning = { 599: ErrorResponse };
  app.get(
    '/Monitoring/GetSiteReportExcel',
    {
      schema: {
        summary: 'The site report as a workbook (one sheet per table); download with File/Download. 599 when no log of the site was parsed',
        tags,
        security,
        querystring: SiteReportQuery,
        response: { 200: FileResponse, 400: ErrorResponse, 404: ErrorResponse, ...denied, ...warning },
      },
      config: { access: 'canMonitor' },
    },
    async (request, reply) => {
      const userId = userIdOf(request);
      return answerOf(reply, await app.jobs.run<SiteReportParams>(REPORT_KIND, userId, { siteId: request.query.siteId, ownerId: userId }));
    },
  );
  app.get(
    '/Monitoring/GetSiteReportEmail',
    {
      schema: {
        summary:
          "The site report's workbook mailed to the caller (userId must be the caller's own id); at most 10 per 15 minutes per user (429). 599 when no log of the site was parsed",
        tags,
        security,
        querystring: SiteReportEmailQuery,
        response: { 200: MessageResponse, 400: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse, ...denied, ...warning },
      },
      config: { access: 'canMonitor' },
    },
    async (request, reply) => {
      const userId = userIdOf(request);
      if (request.query.userId !== userId) return fail(reply, 403, MONITORING_ROUTE_MESSAGES.onlyYourself);
      // Each call builds a workbook and sends a mail: limited per user, like the account calls (memory or Redis).
      const now = app.auth.clock();
      const mailKey = limitKeys.siteReportMail(userId);
      const wait = await app.auth.limits.retryAfter([mailKey], now);
      if (wait !== null) return tooMany(reply, wait);
      await app.auth.limits.count(mailKey, LIMITS.siteReportMailsPerUser, now);
      const user = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow();
      return answerOf(
        reply,
        await app.jobs.run<SiteReportEmailParams>(REPORT_EMAIL_KIND, userId, { siteId: request.query.siteId, ownerId: userId, email: user.email }),
      );
    },
  );

  // ---- Acknowledgements ----

  app.post(
    '/Monitoring/AcknowledgeAlarm',
    {
      schema: {
        summary: 'Acknowledge an alarm with a note (kept while later logs still show the same alarm: node, MO, specific problem)',
        tags,
        security,
        body: AcknowledgeAlarmRequest,
        response: { 200: MessageResponse, 400: ErrorResponse, 404: ErrorResponse, ...denied },
      },
      config: { access: 'canMonitor' },
    },
    async (request, reply) => {
      const note = request.body.note.trim();
      if (note === '') return fail(reply, 400, MONITORING_ROUTE_MESSAGES.blankNote);
      const alarm = await db.selectFrom('monitoring_alarms').select(['alarm_key', 'node_name']).where('id', '=', request.body.alarmId).executeTakeFirst();
      if (!alarm) return fail(reply, 404, MONITORING_ROUTE_MESSAGES.alarmNotFound);
      const userId = userIdOf(request);
      const user = await db.selectFrom('users').select(['firstname', 'lastname']).where('id', '=', userId).executeTakeFirstOrThrow();
      const values = { note, acked_by: userId, acked_by_name: `${user.firstname} ${user.lastname}`, acked_at: new Date(app.auth.clock()).toISOString() };
      await db
        .insertInto('monitoring_alarm_acks')
        .values({ alarm_key: alarm.alarm_key, node_name: alarm.node_name, ...values })
        .onConflict((oc) => oc.columns(['operator_id', 'alarm_key']).doUpdateSet(values))
        .execute();
      return { message: MONITORING_ROUTE_MESSAGES.acknowledged };
    },
  );
  app.post(
    '/Monitoring/UnacknowledgeAlarm',
    {
      schema: {
        summary: "Remove the console's acknowledgement of an alarm",
        tags,
        security,
        body: AlarmIdRequest,
        response: { 200: MessageResponse, 404: ErrorResponse, ...denied },
      },
      config: { access: 'canMonitor' },
    },
    async (request, reply) => {
      const alarm = await db.selectFrom('monitoring_alarms').select('alarm_key').where('id', '=', request.body.alarmId).executeTakeFirst();
      if (!alarm) return fail(reply, 404, MONITORING_ROUTE_MESSAGES.alarmNotFound);
      const result = await db.deleteFrom('monitoring_alarm_acks').where('alarm_key', '=', alarm.alarm_key).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return fail(reply, 404, MONITORING_ROUTE_MESSAGES.notAcknowledged);
      return { message: MONITORING_ROUTE_MESSAGES.unacknowledged };
    },
  );

  // ---- Hints ----

  app.get(
    '/Monitoring/GetAlarmHints',
    {
      schema: { summary: 'The remediation hint catalogue, by alarm name', tags, security, response: { 200: AlarmHintList, ...denied } },
      config: { access: 'canMonitor' },
    },
    async () => listAlarmHints(db),
  );
  app.post(
    '/Monitoring/SaveAlarmHint',
    {
      schema: {
        summary: "Add or replace an alarm name's hint (Administrators)",
        tags,
        security,
        body: SaveAlarmHintRequest,
        response: { 200: MessageResponse, 400: ErrorResponse, ...denied },
      },
      config: { access: 'canAdminister' },
    },
    async (request, reply) => {
      const alarmName = request.body.alarmName.trim();
      const hint = request.body.hint.trim();
      if (alarmName === '') return fail(reply, 400, MONITORING_ROUTE_MESSAGES.blankName);
      if (hint === '') return fail(reply, 400, MONITORING_ROUTE_MESSAGES.blankHint);
      await saveAlarmHint(db, alarmName, hint, userIdOf(request), new Date(app.auth.clock()));
      return { message: MONITORING_ROUTE_MESSAGES.hintSaved };
    },
  );
  app.post(
    '/Monitoring/DeleteAlarmHint',
    {
      schema: {
        summary: "Remove an alarm name's hint (Administrators)",
        tags,
        security,
        body: AlarmNameRequest,
        response: { 200: MessageResponse, 404: ErrorResponse, ...denied },
      },
      config: { access: 'canAdminister' },
    },
    async (request, reply) => {
      if (!(await deleteAlarmHint(db, request.body.alarmName.trim()))) return fail(reply, 404, MONITORING_ROUTE_MESSAGES.hintNotFound);
      return { message: MONITORING_ROUTE_MESSAGES.hintDeleted };
    },
  );

  // ---- PM counters ----

  app.get(
    '/Monitoring/ImportPerformanceCounters',
    {
      schema: {
        summary:
          'Import PM counters (a .zip of TS 32.435 measCollecFile XML, filePath = upload id): per-node verdicts replace the previous ones (Administrators)',
        tags,
        security,
        querystring: ImportQuery,
        response: { 200: PerformanceImportResponse, 400: ErrorResponse, 404: ErrorResponse, ...denied },
      },
      config: { access: 'canAdminister' },
    },
    async (request, reply) => {
      const userId = userIdOf(request);
      let uploadId: string;
      try {
        // Checked here, so a wrong id is answered at once and records no job.
        uploadId = (await resolveUpload(db, dataDir, request.query.filePath, userId, 'zip')).id;
      } catch (error) {
        if (error instanceof FileServiceError) return fail(reply, error.statusCode === 404 ? 404 : 400, error.message);
        throw error;
      }
      return answerOf(reply, await app.jobs.run<PerformanceImportParams>(PERFORMANCE_KIND, userId, { uploadId, ownerId: userId }));
    },
  );
};
