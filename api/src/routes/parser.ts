import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ErrorResponse,
  FileResponse,
  ParseHistoryPage,
  ParseHistoryQuery,
  ParseQuery,
  ParseReport,
  ParseReportQuery,
  ParseResponse,
  UnusableLogsResponse,
} from 'contracts';
import { FileServiceError, resolveUpload } from '../files';
import { listParses, readParseReport } from '../monitoring/parse-history';
import { registerParseJobs, type ParseParams, type ScriptsParams } from '../monitoring/parse-jobs';
import { answerOf, fail, userIdOf } from './support';

export const PARSER_MESSAGES = {
  notYourself: 'You can only parse logs as yourself.',
  reportNotFound: 'Parse report not found.',
} as const;

const parseResponseOf = (body: Record<string, unknown>) => ({ message: body.message, parseId: body.parseId, logsDate: body.logsDate, counts: body.counts });

/** The MoBatch log parser's routes (contracts/monitoring.ts, Parser/*). */
export const parserRoutes: FastifyPluginAsyncTypebox = async (app) => {
  registerParseJobs(app);
  const tags = ['monitoring'];
  const { db } = app.services;
  const dataDir = app.services.config.dataDir;
  const security = [{ bearer: [] }];
  const denied = { 401: ErrorResponse, 403: ErrorResponse };

  app.get(
    '/Parser/GetMoBacthScripts',
    {
      schema: {
        summary:
          'The MoBatch scripts (the specification spells it GetMoBacthScripts): a zip with sites.txt, sites_<tech>.txt, cmd_<tech>.mos and README.txt for every node of the inventory; download with File/Download',
        tags,
        security,
        response: { 200: FileResponse, ...denied },
      },
      config: { access: 'canMonitor' },
    },
    async (request, reply) => {
      const userId = userIdOf(request);
      return answerOf(reply, await app.jobs.run<ScriptsParams>('monitoring.scripts', userId, { ownerId: userId }));
    },
  );

  app.get(
    '/Parser/ParseEricssonLogs',
    {
      schema: {
        summary: 'Parse uploaded MoBatch log archives (filesPath = upload ids of .zip files, comma-separated; userId = the caller) as a job',
        description:
          'Each archive holds one <node>.log per node (and mobatch_result.txt). A refused archive (not a zip, too large inflated, unsafe names, nested archives, no logs) stores nothing of the whole parse. Progress goes to the hub; the owner is notified with the per-file outcomes; the report is at Parser/GetParseReport.',
        tags,
        security,
        querystring: ParseQuery,
        response: { 200: ParseResponse, 400: ErrorResponse, 404: ErrorResponse, 422: UnusableLogsResponse, ...denied },
      },
      config: { access: 'canMonitor' },
    },
    async (request, reply) => {
      const userId = userIdOf(request);
      if (request.query.userId !== userId) return fail(reply, 403, PARSER_MESSAGES.notYourself);
      const uploadIds = [...new Set(request.query.filesPath.split(',').map((id) => id.trim()))];
      for (const id of uploadIds) {
        try {
          // Checked here, so a wrong id is answered at once and records no job.
          await resolveUpload(db, dataDir, id, userId, 'zip');
        } catch (error) {
          if (error instanceof FileServiceError) return fail(reply, error.statusCode === 404 ? 404 : 400, error.message);
          throw error;
        }
      }
      const job = await app.jobs.run<ParseParams>('monitoring.parse', userId, { uploadIds, ownerId: userId });
      request.log.info({ job: job.id, state: job.state, uploads: uploadIds.length }, 'log parse finished');
      return answerOf(reply, job, parseResponseOf);
    },
  );

  app.get(
    '/Parser/GetParseHistory',
    {
      schema: {
        summary:
          'Parses, newest first; page (1-based), size (≤ 100), sort (a field), order (ascend | descend), filters (JSON { field: text }, contains, any case)',
        tags,
        security,
        querystring: ParseHistoryQuery,
        response: { 200: ParseHistoryPage, 400: ErrorResponse, ...denied },
      },
      config: { access: 'canMonitor' },
    },
    async (request) => listParses(db, request.query),
  );

  app.get(
    '/Parser/GetParseReport',
    {
      schema: {
        summary: "One parse's report: counts, and each file's outcome with its first problems (line and reason)",
        tags,
        security,
        querystring: ParseReportQuery,
        response: { 200: ParseReport, 404: ErrorResponse, ...denied },
      },
      config: { access: 'canMonitor' },
    },
    async (request, reply) => {
      const report = await readParseReport(db, request.query.id);
      if (!report) return fail(reply, 404, PARSER_MESSAGES.reportNotFound);
      // The contract's outcome union (Type.Union of mapped literals) reaches the type provider as never; the schema still serializes it.
      return reply.send(report as never);
    },
  );
};
