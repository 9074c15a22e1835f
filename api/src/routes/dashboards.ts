import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isoTime } from '../auth/clock';
import {
  BiServerList,
  DASHBOARD_MESSAGES,
  DashboardInspectQuery,
  DashboardInspectResponse,
  DashboardUpdate,
  DashboardUpdateResponse,
  DEFAULT_ROLLOUT_WEEKS,
  ErrorResponse,
  RolloutQuery,
  RolloutStats,
  SiteMapResponse,
} from 'contracts';
import { EmbedTokenError, getDashboard, inspectDashboard, loadRollout, loadSiteMap, publicServer, updateDashboard, updateProblem } from '../dashboards';
import { fail, userIdOf } from './support';

export const DASHBOARD_ROUTE_MESSAGES = {
  onlyYourself: 'You can only open a dashboard as yourself.',
} as const;

/**
 * Dashboards (contracts/dashboards.ts; specification §7 `Dashboard/Inspect`; docs/engines/monitoring.md#dashboards): the records,
 * their embed tokens minted per call, the BI servers the environment configures, and the native rollout
 * charts' numbers and site map for when no BI server is used.
 */
export const dashboardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['dashboards'];
  const { db, config } = app.services;
  const security = [{ bearer: [] }];
  const denied = { 401: ErrorResponse, 403: ErrorResponse };

  app.get(
    '/Dashboard/Inspect',
    {
      schema: {
        summary:
          'The dashboard with an embed token minted for this call (Power BI embed token, Tableau trusted ticket), or native: true when it names no configured BI server; userId must be your own',
        tags,
        security,
        querystring: DashboardInspectQuery,
        response: { 200: DashboardInspectResponse, 400: ErrorResponse, 404: ErrorResponse, 502: ErrorResponse, ...denied },
      },
      config: { access: 'canOpenDashboard' },
    },
    async (request, reply) => {
      const userId = userIdOf(request);
      if (request.query.userId !== userId) return fail(reply, 403, DASHBOARD_ROUTE_MESSAGES.onlyYourself);
      const record = await getDashboard(db, request.query.dashboardId);
      if (!record) return fail(reply, 404, DASHBOARD_MESSAGES.notFound);
      try {
        const data = await inspectDashboard(record, { db, servers: config.biServers, nowMs: app.auth.clock(), userId });
        // The contract's literal unions are built from arrays, which the type provider reads as never; the response schema shapes what is sent.
        return { data } as never;
      } catch (error) {
        if (!(error instanceof EmbedTokenError)) throw error;
        request.log.warn({ dashboardId: record.id, serverId: record.serverId, reason: error.message }, 'no embed token');
        return fail(reply, 502, error.message);
      }
    },
  );

  app.get(
    '/Dashboard/GetServers',
    {
      schema: {
        summary: 'The BI servers configured on the server (id, type, name, origin), for the dashboard editor; never their credentials (Administrators)',
        tags,
        security,
        response: { 200: BiServerList, ...denied },
      },
      config: { access: 'canAdminister' },
    },
    async () => ({ data: config.biServers.map(publicServer) }) as never,
  );

  app.put(
    '/Dashboard/Update',
    {
      schema: {
        summary:
          "Change a dashboard record (Administrators): the BI server must be configured and of the record's type, the URL https and on that server's origin (Power BI: reportEmbed?reportId=…&groupId=…); serverId null shows the native charts",
        tags,
        security,
        body: DashboardUpdate,
        response: { 200: DashboardUpdateResponse, 400: ErrorResponse, 404: ErrorResponse, ...denied },
      },
      config: { access: 'canAdminister' },
    },
    async (request, reply) => {
      const update = request.body;
      if (!(await getDashboard(db, update.id))) return fail(reply, 404, DASHBOARD_MESSAGES.notFound);
      const problem = updateProblem(update, config.biServers);
      if (problem) return fail(reply, 400, problem);
      const saved = await updateDashboard(db, update, userIdOf(request), isoTime(app.auth.clock()));
      if (!saved) return fail(reply, 404, DASHBOARD_MESSAGES.notFound);
      return { data: saved } as never;
    },
  );

  app.get(
    '/Dashboard/GetRollout',
    {
      schema: {
        summary: `The native rollout charts' numbers over the last weeks (default ${DEFAULT_ROLLOUT_WEEKS}, at most 104) ending with the current ISO week (UTC): sites planned vs done per week, tracker statuses, open work orders per type, alarms per week and severity`,
        tags,
        security,
        querystring: RolloutQuery,
        response: { 200: RolloutStats, 400: ErrorResponse, ...denied },
      },
      config: { access: 'canOpenDashboard' },
    },
    async (request) => loadRollout(db, app.auth.clock(), request.query.weeks ?? DEFAULT_ROLLOUT_WEEKS),
  );

  app.get(
    '/Monitoring/GetSiteMap',
    {
      schema: {
        summary:
          "Sites of the network inventory with coordinates: technologies, overall and per-area status of their nodes' latest logs, tracker row; and the map's tile URL",
        tags,
        security,
        response: { 200: SiteMapResponse, ...denied },
      },
      config: { access: 'canOpenDashboard' },
    },
    async () => (await loadSiteMap(db, config.mapTileUrl)) as never,
  );
};
