import fs from 'node:fs';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ErrorResponse, FileResponse, Id, RunResponse, SiteId, UploadIdList } from 'contracts';
import { FileServiceError, newExport, recordExport, resolveUpload } from '../files';
import { registerRunRoutes } from '../runs/routes';
import { unknownSites } from '../network/scope';
import { NBR_JOB_KIND, NBR_MESSAGES, writeNbrTemplate, type NbrParams } from '../validation/neighbours';
import { fail, runAnswerOf, userIdOf } from './support';
import { VALIDATION_ROUTE_MESSAGES } from './validation-cpich';

export const NbrRelationsValidationQuery = Type.Object({ site: SiteId, userId: Id, filesPath: UploadIdList }, { additionalProperties: false });

export const NBR_TEMPLATE_NAME = 'NbrRelationsValidation_Template.xlsx';

/** Neighbour relations validation runs (Validation/RunNbrRelationsValidation, template, history, export). */
export const neighbourValidationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['validation'];
  const { db } = app.services;
  const dataDir = app.services.config.dataDir;
  const security = [{ bearer: [] }];
  const denied = { 401: ErrorResponse, 403: ErrorResponse };

  app.get(
    '/Validation/RunNbrRelationsValidation',
    {
      schema: {
        summary:
          'Neighbour relations validation of one site (site; userId = the caller; filesPath = upload ids of .xlsx planned-relations workbooks, comma-joined) as a job: OK / MISSING / EXTRA / WRONG per (source cell, target cell); download the workbook with File/Download',
        description:
          'Headers are matched without case or spaces (see Validation/GetNbrRelationsTemplate; Ericsson-style names such as EUtranCellFDD / neighbor cell are read too). A workbook without Source Cell and Target Cell columns is refused (400) naming the file and the columns; rows with blanks are reported in the workbook. 404 for an unknown site or upload; 599 when the site has no cells or the workbooks plan nothing for it. Nothing is recorded on a refusal.',
        tags,
        security,
        querystring: NbrRelationsValidationQuery,
        response: { 200: RunResponse, 400: ErrorResponse, 404: ErrorResponse, 599: ErrorResponse, ...denied },
      },
      config: { access: 'canValidate' },
    },
    async (request, reply) => {
      const userId = userIdOf(request);
      if (request.query.userId !== userId) return fail(reply, 403, VALIDATION_ROUTE_MESSAGES.notYourself);
      const site = request.query.site.trim();
      if (site === '' || (await unknownSites(db, [site])).length > 0) return fail(reply, 404, NBR_MESSAGES.unknownSite(site));
      const uploads: NbrParams['uploads'] = [];
      for (const id of [...new Set(request.query.filesPath.split(',').map((s) => s.trim()))]) {
        try {
          // Checked here, so a wrong id is answered at once and makes no job.
          const upload = await resolveUpload(db, dataDir, id, userId, 'xlsx');
          uploads.push({ id: upload.id, name: upload.name });
        } catch (error) {
          if (error instanceof FileServiceError) return fail(reply, error.statusCode === 404 ? 404 : 400, error.message);
          throw error;
        }
      }
      const job = await app.jobs.run<NbrParams>(NBR_JOB_KIND, userId, { site, uploads, ownerId: userId });
      request.log.info({ job: job.id, state: job.state, uploads: uploads.length }, 'neighbour relations validation finished');
      return runAnswerOf(reply, job);
    },
  );

  registerRunRoutes(app, 'nbrRelationsValidation', {
    historyPath: 'Validation/GetNbrRelationsValidationHistory',
    exportPath: 'Validation/GetNbrRelationsValidationExport',
    findingsPath: 'Validation/GetNbrRelationsValidationFindings',
    idParam: 'nbrRelationsValidationId',
    access: 'canValidate',
    tags,
    what: 'Neighbour relations validation',
  });

  app.get(
    '/Validation/GetNbrRelationsTemplate',
    {
      schema: {
        summary:
          'The planned-relations workbook template (Source Cell, Target Cell, optional Target PCI / Channel / TAC, an example row and a Read me sheet); download with File/Download',
        tags,
        security,
        response: { 200: FileResponse, ...denied },
      },
      config: { access: 'canValidate' },
    },
    async (request) => {
      const pending = newExport(dataDir, 'validation.nbrTemplate', NBR_TEMPLATE_NAME);
      try {
        await writeNbrTemplate(pending.file);
        return { file: await recordExport(db, userIdOf(request), pending) };
      } catch (error) {
        fs.rmSync(pending.file, { force: true });
        throw error;
      }
    },
  );
};
