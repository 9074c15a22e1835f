import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ErrorResponse, RunResponse, SiteId, SiteListQuery, SiteOptions } from 'contracts';
import type { JobKind } from '../jobs/model';
import { runAnswerOutcome, runNotificationKey } from '../jobs/outcome';
import { registerRunRoutes } from '../runs/routes';
import { HEALTH_KIND, type HealthParams } from '../validation/health';
import { RANSHARE_KIND, type RanShareParams } from '../validation/ranshare';
import { findSharedSiteOptions } from '../validation/ranshare-layers';
import { answerOf, fail, userIdOf } from './support';

/** RAN-share neighbour validation and its site picker, and health checks (Validation/RunRanShareNbrRelationsValidation, GetRanShareSites, GetHealthChecksExport, histories). */

export const RANSHARE_HEALTH_ROUTE_MESSAGES = {
  onlyYourself: 'You can only run this as yourself.',
} as const;

const UserId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
/** Specification §7: `RunRanShareNbrRelationsValidation (site, userId)`. */
export const RanShareRunQuery = Type.Object({ site: SiteId, userId: UserId }, { additionalProperties: false });
/** Specification §7: `GetHealthChecksExport (siteId, userId)`. */
export const HealthChecksRunQuery = Type.Object({ siteId: SiteId, userId: UserId }, { additionalProperties: false });

const messageOf = (body: unknown): string | null => (body && typeof body === 'object' && 'message' in body ? String(body.message) : null);

function registerJobs(app: FastifyInstance): void {
  app.jobs.register<RanShareParams>({
    kind: RANSHARE_KIND,
    label: 'RAN-share neighbour relations validation',
    // Reads the dump and records one run: safe to run again from the start.
    idempotent: true,
    run: ({ jobId, params, progress, signal }) => app.runTask(RANSHARE_KIND, { ...params, jobId }, progress, signal),
    // What the run found; a refusal (unknown or unshared site) is the caller's answer already.
    notificationKey: (_params, _ok, body) => runNotificationKey('validation-ranshare', body),
    outcome: runAnswerOutcome,
    notification: ({ ok, body }) => (ok ? messageOf(body) : null),
  } satisfies JobKind<RanShareParams>);
  app.jobs.register<HealthParams>({
    kind: HEALTH_KIND,
    label: 'Health checks',
    idempotent: true,
    run: ({ jobId, params, progress, signal }) => app.runTask(HEALTH_KIND, { ...params, jobId }, progress, signal),
    notificationKey: (_params, _ok, body) => runNotificationKey('validation-health-checks', body),
    outcome: runAnswerOutcome,
    notification: ({ ok, body }) => (ok ? messageOf(body) : null),
  } satisfies JobKind<HealthParams>);
}

export const ranShareAndHealthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  registerJobs(app);
  const tags = ['validation'];
  const { db } = app.services;
  const security = [{ bearer: [] }];
  const denied = { 401: ErrorResponse, 403: ErrorResponse };
  const refusals = { 400: ErrorResponse, 404: ErrorResponse, 599: ErrorResponse, ...denied };

  app.get(
    '/Validation/GetRanShareSites',
    {
      schema: {
        summary:
          'The RAN-share page\'s site select: the sites recorded as shared (MORAN or MOCN) that the current operator owns or is a partner of; value = id, text = "id – name"; filtered by `query` (id or name, anywhere, any case); at most 20, by id',
        tags,
        security,
        querystring: SiteListQuery,
        response: { 200: SiteOptions, 400: ErrorResponse, ...denied },
      },
      config: { access: 'canValidate' },
    },
    async (request) => findSharedSiteOptions(db, request.query.query),
  );

  app.get(
    '/Validation/RunRanShareNbrRelationsValidation',
    {
      schema: {
        summary:
          "RAN-share neighbour relations validation of a site (userId must be the caller's own id): MOCN (every target broadcasts each PLMN its source serves) and MORAN (each sharing operator's layer mirrors the host layer's relations). A site recorded as shared is validated across both operators' layers and PLMNs, from either side; the other operator's relations to sites the two do not share are left out (counted). A workbook, a history row. 599 when the site is not shared",
        tags,
        security,
        querystring: RanShareRunQuery,
        response: { 200: RunResponse, ...refusals },
      },
      config: { access: 'canValidate' },
    },
    async (request, reply) => {
      const userId = userIdOf(request);
      if (request.query.userId !== userId) return fail(reply, 403, RANSHARE_HEALTH_ROUTE_MESSAGES.onlyYourself);
      const job = await app.jobs.run<RanShareParams>(RANSHARE_KIND, userId, { site: request.query.site.trim(), ownerId: userId });
      return answerOf(reply, job);
    },
  );

  app.get(
    '/Validation/GetHealthChecksExport',
    {
      schema: {
        summary:
          "Health checks of a site (userId must be the caller's own id): alarms, states, RET, configuration checks, CPICH and neighbour findings in one workbook; a history row. 599 when nothing is known of the site (no parsed logs, no cells in the dump)",
        tags,
        security,
        querystring: HealthChecksRunQuery,
        response: { 200: RunResponse, ...refusals },
      },
      config: { access: 'canValidate' },
    },
    async (request, reply) => {
      const userId = userIdOf(request);
      if (request.query.userId !== userId) return fail(reply, 403, RANSHARE_HEALTH_ROUTE_MESSAGES.onlyYourself);
      const job = await app.jobs.run<HealthParams>(HEALTH_KIND, userId, { siteId: request.query.siteId.trim(), ownerId: userId });
      return answerOf(reply, job);
    },
  );

  registerRunRoutes(app, 'ranShareValidation', {
    historyPath: 'Validation/GetRanShareValidationHistory',
    exportPath: 'Validation/GetRanShareValidationExport',
    findingsPath: 'Validation/GetRanShareValidationFindings',
    idParam: 'runId',
    access: 'canValidate',
    tags,
    what: 'RAN-share validation',
  });
  registerRunRoutes(app, 'healthChecks', {
    historyPath: 'Validation/GetHealthChecksHistory',
    exportPath: 'Validation/GetHealthChecksRunExport',
    findingsPath: 'Validation/GetHealthChecksFindings',
    idParam: 'runId',
    access: 'canValidate',
    tags,
    what: 'Health check',
  });
};
