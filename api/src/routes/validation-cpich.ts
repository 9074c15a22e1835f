import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ErrorResponse, Id, RunResponse, SiteIdList } from 'contracts';
import { registerRunRoutes } from '../runs/routes';
import { CPICH_JOB_KIND, cpichRefusal, siteListOf, type CpichParams } from '../validation/cpich';
import { registerValidationJobs } from '../validation/jobs';
import { fail, runAnswerOf, userIdOf } from './support';

export const VALIDATION_ROUTE_MESSAGES = {
  notYourself: 'You can only run this as yourself.',
} as const;

export const CpichValidationQuery = Type.Object({ sites: SiteIdList, userId: Id }, { additionalProperties: false });

/** CPICH validation runs (Validation/RunCpichValidation, history, export). */
export const cpichRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // The neighbour routes' jobs too: one registration for the page group's kinds.
  registerValidationJobs(app);
  const tags = ['validation'];
  const { db } = app.services;
  const security = [{ bearer: [] }];
  const denied = { 401: ErrorResponse, 403: ErrorResponse };

  app.get(
    '/Validation/RunCpichValidation',
    {
      schema: {
        summary:
          'CPICH validation of the UTRAN cells of 1–20 sites (sites comma-joined; userId = the caller) as a job: one row per cell with its verdict (OK / WARNING / ERROR) and reason; download the workbook with File/Download',
        description:
          'Powers in 0.1 dBm. ERROR: a power missing, primaryCpichPower ≥ maximumTransmissionPower, or max power above the radio capability (46 dBm). WARNING: CPICH outside max − 12 dB … max − 8 dB, or sectors of a site (one UARFCN) more than 2 dB apart. 404 for an unknown site, 599 when the sites have no UTRAN cell; nothing is recorded then.',
        tags,
        security,
        querystring: CpichValidationQuery,
        response: { 200: RunResponse, 400: ErrorResponse, 404: ErrorResponse, 599: ErrorResponse, ...denied },
      },
      config: { access: 'canValidate' },
    },
    async (request, reply) => {
      const userId = userIdOf(request);
      if (request.query.userId !== userId) return fail(reply, 403, VALIDATION_ROUTE_MESSAGES.notYourself);
      const sites = siteListOf(request.query.sites);
      // Checked here too, so a refused selection makes no job.
      const refusal = await cpichRefusal(db, sites);
      if (refusal) return reply.code(refusal.status).send({ message: refusal.body.message });
      const job = await app.jobs.run<CpichParams>(CPICH_JOB_KIND, userId, { sites, ownerId: userId });
      request.log.info({ job: job.id, state: job.state, sites: sites.length }, 'cpich validation finished');
      return runAnswerOf(reply, job);
    },
  );

  registerRunRoutes(app, 'cpichValidation', {
    historyPath: 'Validation/GetCpichValidationHistory',
    exportPath: 'Validation/GetCpichValidationExport',
    findingsPath: 'Validation/GetCpichValidationFindings',
    idParam: 'cpichValidationId',
    access: 'canValidate',
    tags,
    what: 'CPICH validation',
  });
};
