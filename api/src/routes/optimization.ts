import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ErrorResponse, FileResponse, Id, RunResponse, UploadIdList } from 'contracts';
import { FileServiceError, resolveUpload } from '../files';
import { OPTIMIZATION_JOB_KIND, registerOptimizationJobs } from '../optimization/jobs';
import { OPTIMIZATION_MESSAGES, THRESHOLDS, type OptimisationParams } from '../optimization/run';
import { exportTemplate } from '../optimization/template';
import { registerRunRoutes } from '../runs/routes';
import { fail, runAnswerOf, userIdOf } from './support';

/** `Optimization/RunNbrRelationsOptimization`: filesPath = upload ids of .xlsx statistics, comma-joined; userId = the caller. */
export const RunNbrRelationsOptimizationQuery = Type.Object({ userId: Id, filesPath: UploadIdList }, { additionalProperties: false });

/** Neighbour relations optimisation runs (Optimization/*; specification §7, docs/engines/planning.md#neighbour-optimisation). */
export const optimizationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  registerOptimizationJobs(app);
  const tags = ['optimization'];
  const { db } = app.services;
  const dataDir = app.services.config.dataDir;
  const security = [{ bearer: [] }];
  const denied = { 401: ErrorResponse, 403: ErrorResponse };
  const t = THRESHOLDS;

  app.get(
    '/Optimization/RunNbrRelationsOptimization',
    {
      schema: {
        summary: 'Neighbour relations optimisation from uploaded handover statistics (.xlsx upload ids, comma-joined) as a job',
        description:
          'Each workbook: one row per relation and period with source, target, period, attempts and successes (headers matched without case or spaces; ' +
          `Ericsson names such as EUtranCellFDD, neighborCellRef, pmHoExeAtt, pmHoExeSucc accepted). Remove: no attempt and isRemoveAllowed; block: ≥ ${t.blockMinAttempts} ` +
          `attempts and success rate < ${t.blockSuccessRate * 100}%; add: ≥ ${t.addMinAttempts} attempts to a cell that is not a defined neighbour. ` +
          'Answers the run (workbook id, summary, first rows); 400 for a workbook without the needed headers or with no data, 404 for an unknown upload.',
        tags,
        security,
        querystring: RunNbrRelationsOptimizationQuery,
        response: { 200: RunResponse, 400: ErrorResponse, 404: ErrorResponse, ...denied },
      },
      config: { access: 'canOptimize' },
    },
    async (request, reply) => {
      const userId = userIdOf(request);
      if (request.query.userId !== userId) return fail(reply, 403, OPTIMIZATION_MESSAGES.notYourself);
      const uploadIds = [...new Set(request.query.filesPath.split(',').map((id) => id.trim()))];
      for (const id of uploadIds) {
        try {
          // Checked here, so a wrong id is answered at once and records no job.
          await resolveUpload(db, dataDir, id, userId, 'xlsx');
        } catch (error) {
          if (error instanceof FileServiceError) return fail(reply, error.statusCode === 404 ? 404 : 400, error.message);
          throw error;
        }
      }
      const job = await app.jobs.run<OptimisationParams>(OPTIMIZATION_JOB_KIND, userId, { uploadIds, ownerId: userId });
      request.log.info({ job: job.id, state: job.state, uploads: uploadIds.length }, 'neighbour optimisation finished');
      return runAnswerOf(reply, job);
    },
  );

  registerRunRoutes(app, 'nbrRelationsOptimization', {
    historyPath: 'Optimization/GetNbrRelationsOptimizationHistory',
    exportPath: 'Optimization/GetNbrRelationsOptimizationExport',
    findingsPath: 'Optimization/GetNbrRelationsOptimizationFindings',
    idParam: 'nbrRelationsOptimizationId',
    access: 'canOptimize',
    tags,
    what: 'Neighbour relations optimisation',
  });

  app.get(
    '/Optimization/GetNbrRelationsOptimizationTemplate',
    {
      schema: {
        summary: "The handover statistics template (headers, example rows, a 'Read me' sheet with the thresholds); download with File/Download",
        tags,
        security,
        response: { 200: FileResponse, ...denied },
      },
      config: { access: 'canOptimize' },
    },
    async (request) => ({ file: await exportTemplate(db, dataDir, userIdOf(request)) }),
  );
};
