import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Capability } from 'shared-auth/policy';
import {
  ErrorResponse,
  FileResponse,
  Id,
  RunFindingsPage,
  runFindingsQuery,
  type RunFindingsQuery,
  RunHistoryPage,
  RunHistoryQuery,
  type RunKind,
} from 'contracts';
import { FileServiceError } from '../files';
import { userIdOf } from '../routes/support';
import { exportRun, listRunFindings, listRunHistory, RUN_MESSAGES } from '.';

/**
 * The routes every run kind has, said once: its history, a fresh export of a past run's workbook, and
 * a run's findings (every row of its result sheets, worst first), under the names the specification
 * gives them (e.g. `Validation/GetCpichValidationHistory`, `Validation/GetCpichValidationExport` with
 * `cpichValidationId`) and, for the findings, the same name with `Findings` and the same id parameter.
 * Each route asks the kind's own capability.
 */
export interface RunRoutes {
  historyPath: string;
  exportPath: string;
  findingsPath: string;
  /** The run id's query parameter of the export and findings routes. */
  idParam: string;
  access: Capability;
  tags: string[];
  /** What the run is called in the API description, e.g. 'CPICH validation'. */
  what: string;
}

const LIST_HELP = 'page (1-based), size (≤ 100), sort (a field), order (ascend | descend), filters (JSON { field: text }, contains, any case)';

export function registerRunRoutes(app: FastifyInstance, kind: RunKind, routes: RunRoutes): void {
  const { db } = app.services;
  const dataDir = app.services.config.dataDir;
  const common = { tags: routes.tags, security: [{ bearer: [] }] };
  const denied = { 401: ErrorResponse, 403: ErrorResponse };
  const config = { access: routes.access };
  const idOf = (query: unknown) => (query as Record<string, number>)[routes.idParam]!;

  app.get(
    `/${routes.historyPath}`,
    {
      schema: {
        summary: `${routes.what} runs (id, user, sites, files, runDate, outcome), newest first; ${LIST_HELP}`,
        ...common,
        querystring: RunHistoryQuery,
        response: { 200: RunHistoryPage, 400: ErrorResponse, ...denied },
      },
      config,
    },
    async (request) => listRunHistory(db, kind, request.query as RunHistoryQuery),
  );

  const idQuery = Type.Object({ [routes.idParam]: Id }, { additionalProperties: false });
  app.get(
    `/${routes.exportPath}`,
    {
      schema: {
        summary: `A past ${routes.what} run's workbook, as a fresh export for the caller (download with File/Download?file=)`,
        ...common,
        querystring: idQuery,
        response: { 200: FileResponse, 400: ErrorResponse, 404: ErrorResponse, ...denied },
      },
      config,
    },
    async (request) => ({ file: await exportRun(db, dataDir, kind, idOf(request.query), userIdOf(request)) }),
  );

  app.get(
    `/${routes.findingsPath}`,
    {
      schema: {
        summary:
          `A ${routes.what} run and one page of its findings: every row of one result sheet (sheet: its name, default the first), ` +
          `worst verdict first (ERROR, WARNING, MISSING, WRONG, EXTRA, then OK), then the sheet's order; ${LIST_HELP} — fields are the sheet's column keys`,
        ...common,
        querystring: runFindingsQuery(routes.idParam),
        response: { 200: RunFindingsPage, 400: ErrorResponse, 404: ErrorResponse, ...denied },
      },
      config,
    },
    async (request) => {
      const page = await listRunFindings(db, kind, idOf(request.query), request.query as RunFindingsQuery);
      if (!page) throw new FileServiceError(404, RUN_MESSAGES.notFound);
      return page;
    },
  );
}
