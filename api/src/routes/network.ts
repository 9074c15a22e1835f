import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { Capability } from 'shared-auth/policy';
import { ErrorResponse, ImportDumpJsonRequest, ImportDumpResponse, LastImportDate, NetworkSummary, SiteListQuery, SiteOptions } from 'contracts';
import { assertCoordinateEncoding, compileSiteRule, DEFAULT_SITE_RULE } from '../domain/network';
import { assertImportFormat, findSiteOptions, getNetworkSummary, isDumpInputError, lastImportDate } from '../network';
import { registerNetworkJobs, type DumpImportAnswer, type DumpImportParams } from '../network/jobs';

export { importedMessage } from '../network/jobs';

/** Dumps of a whole network reach hundreds of MB; the generic File/Upload limit (10 MB) does not apply here. */
export const MAX_DUMP_BYTES = 1024 * 1024 * 1024;

export const NETWORK_MESSAGES = {
  uploadIdsUnsupported: 'Upload ids are not supported yet: send the file as multipart.',
  noFile: 'Send the dump as a file part of a multipart form.',
  oneFile: 'Send one dump at a time.',
  tooLarge: `The dump is larger than ${MAX_DUMP_BYTES / 1024 / 1024 / 1024} GB.`,
} as const;

const FIELDS = new Set(['format', 'coords', 'siteRule']);
const FIELD_LIST = 'format, coords and siteRule';

/** Multipart errors of @fastify/multipart that mean "too much", answered in words the console can show. */
function multipartProblem(error: unknown): { status: 400 | 413; message: string } | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return { status: 413, message: NETWORK_MESSAGES.tooLarge };
  if (code === 'FST_FILES_LIMIT') return { status: 400, message: NETWORK_MESSAGES.oneFile };
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return { status: 400, message: `Too many form fields: send the file, ${FIELD_LIST} only.` };
  return null;
}

/** A file name for the history: the last path segment some browsers still send, bounded. */
function displayName(filename: string | undefined): string {
  const last = (filename ?? '').split(/[\\/]/).pop()?.trim() ?? '';
  return (last === '' ? 'dump' : last).slice(0, 255);
}

export const networkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  registerNetworkJobs(app);
  // Scoped to this plugin: only the dump import reads multipart bodies this large.
  await app.register(fastifyMultipart, { limits: { files: 1, fileSize: MAX_DUMP_BYTES, fields: 5, parts: 6 } });
  const tags = ['network'];

  app.post(
    '/Network/ImportDump',
    {
      schema: {
        summary: 'Replace the network inventory with a dump',
        description:
          'multipart/form-data with one file part (3GPP Bulk CM XML or an ENM cmedit export) and optional fields ' +
          '`format` (auto | bulkcm | cmedit, default auto), `coords` (microdegrees | 3gpp | degrees, default microdegrees) and ' +
          '`siteRule` (a regular expression with a named group `site` that finds the site id in a node name; default: ' +
          `\`${DEFAULT_SITE_RULE.source}\`, which strips type prefixes such as ERBS_ or NR_). ` +
          'The answer tells how the nodes fell on sites and warns when one site got suspiciously many. ' +
          'All or nothing: a file that cannot be read changes nothing and answers 400 with the line and column. ' +
          'A JSON body `{ uploadId }` is reserved for files sent through File/Upload.',
        tags,
        security: [{ bearer: [] }],
        consumes: ['multipart/form-data', 'application/json'],
        // Only JSON bodies are validated here; multipart parts are read (and checked) by the handler as they stream.
        body: { content: { 'application/json': { schema: ImportDumpJsonRequest } } },
        response: { 200: ImportDumpResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 413: ErrorResponse },
      },
      config: { access: 'canAdminister' },
    },
    async (request, reply) => {
      if (!request.isMultipart()) return reply.code(400).send({ message: NETWORK_MESSAGES.uploadIdsUnsupported });

      const tmpDir = path.join(app.services.config.dataDir, 'files', 'tmp');
      fs.mkdirSync(tmpDir, { recursive: true });
      const tmpFile = path.join(tmpDir, `${randomUUID()}.dump`);
      let fileName: string | null = null;
      let kept = false;
      try {
        const fields: Record<string, string> = {};
        try {
          for await (const part of request.parts()) {
            if (part.type === 'file') {
              fileName = displayName(part.filename);
              // To disk first: the import must not hold the upload open, and the fields may come after the file.
              await pipeline(part.file, fs.createWriteStream(tmpFile));
            } else {
              if (!FIELDS.has(part.fieldname)) return reply.code(400).send({ message: `Unknown field "${part.fieldname}": send ${FIELD_LIST} only.` });
              fields[part.fieldname] = String(part.value);
            }
          }
        } catch (error) {
          const problem = multipartProblem(error);
          if (problem) return reply.code(problem.status).send({ message: problem.message });
          throw error;
        }
        if (fileName === null) return reply.code(400).send({ message: NETWORK_MESSAGES.noFile });

        // Checked here, so bad settings are answered at once and record no job.
        const format = assertImportFormat(fields.format ?? 'auto');
        const coords = assertCoordinateEncoding(fields.coords ?? 'microdegrees');
        // A blank field is a form left empty: the server's default rule.
        const siteRule = fields.siteRule !== undefined && fields.siteRule.trim() !== '' ? fields.siteRule : app.services.config.siteRule;
        if (siteRule) compileSiteRule(siteRule);
        const job = await app.jobs.run<DumpImportParams>('network.import', request.session?.userId ?? null, {
          file: path.relative(app.services.config.dataDir, tmpFile),
          removeAfter: true,
          fileName,
          format,
          coords,
          siteRule,
          importedBy: request.session?.userId ?? null,
        });
        kept = true;
        request.log.info({ file: fileName, job: job.id, state: job.state }, 'network dump import finished');
        const outcome = job.outcome ?? { status: 500, body: { message: 'Something went wrong!' } };
        if (outcome.status !== 200) return (reply as FastifyReply).code(outcome.status).send(outcome.body);
        const { message, counts, importedAt, sites, warnings } = outcome.body as DumpImportAnswer;
        return { message, counts, importedAt, sites, warnings };
      } catch (error) {
        if (!isDumpInputError(error)) throw error;
        return reply.code(400).send({ message: error.message });
      } finally {
        // Once queued, the file is the job's: it removes it when it ends.
        if (!kept) fs.rmSync(tmpFile, { force: true });
      }
    },
  );

  app.get(
    '/Network/GetSummary',
    {
      schema: {
        summary: 'What the stored network inventory holds, counted from its rows',
        tags,
        security: [{ bearer: [] }],
        response: { 200: NetworkSummary, 401: ErrorResponse, 403: ErrorResponse },
      },
      // The inventory planning works on: engineering reads it, like the site lists.
      config: { access: 'canPlan' },
    },
    async () => getNetworkSummary(app.services.db),
  );

  /** The browser expects the date as JSON text, '' when there is none (it then shows its fallback banner). */
  const lastDate = (url: string, summary: string, access: Capability) =>
    app.get(
      url,
      { schema: { summary, tags, security: [{ bearer: [] }], response: { 200: LastImportDate, 401: ErrorResponse, 403: ErrorResponse } }, config: { access } },
      async (_request, reply: FastifyReply) =>
        // A bare string would go out as text/plain; the contract is a JSON string.
        reply.type('application/json; charset=utf-8').send(JSON.stringify((await lastImportDate(app.services.db)) ?? '')),
    );
  lastDate('/Parameters/GetLastDumpDate', 'Date of the last network dump import (ISO-8601), or an empty string', 'canPlan');
  lastDate('/Validation/GetLastUtranCellsDate', 'Date the UTRAN cells were last imported (the network dump), or an empty string', 'canValidate');
  lastDate('/Validation/GetLastNbrRelationsDate', 'Date the neighbour relations were last imported (the network dump), or an empty string', 'canValidate');

  const siteList = (url: string, summary: string, access: Capability, utranOnly: boolean) =>
    app.get(
      url,
      {
        schema: {
          summary,
          tags,
          security: [{ bearer: [] }],
          querystring: SiteListQuery,
          response: { 200: SiteOptions, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse },
        },
        config: { access },
      },
      async (request) => findSiteOptions(app.services.db, { query: request.query.query, utranOnly }),
    );
  const listSummary = 'Sites for the site select: value = id, text = "id – name"; filtered by `query` (id or name, anywhere, any case); at most 20, by id';
  siteList('/Parameters/GetSiteList', listSummary, 'canPlan', false);
  siteList('/Validation/GetSites', listSummary, 'canValidate', false);
  siteList('/Validation/GetUtranSites', `${listSummary}; only sites with 3G cells`, 'canValidate', true);
  siteList('/Monitoring/GetSiteList', listSummary, 'canMonitor', false);
};
