import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pingDatabase } from '../db/database';
import { VERSION } from '../lib/version';

const HealthResponse = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
    version: Type.String(),
    database: Type.Object({ dialect: Type.String(), reachable: Type.Boolean() }),
    backplane: Type.Object({ kind: Type.Union([Type.Literal('in-process'), Type.Literal('redis')]), reachable: Type.Boolean() }),
  },
  { additionalProperties: false },
);

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/health',
    {
      schema: {
        summary: 'Liveness and dependencies',
        tags: ['platform'],
        response: { 200: HealthResponse, 503: HealthResponse },
      },
      config: { access: 'public' },
    },
    async (_request, reply) => {
      let reachable = true;
      try {
        await pingDatabase(app.services.db);
      } catch (error) {
        app.log.error({ err: error }, 'database ping failed');
        reachable = false;
      }
      const backplane = await app.notifications.backplaneStatus();
      const body = {
        status: reachable && backplane.reachable ? ('ok' as const) : ('degraded' as const),
        version: VERSION,
        database: { dialect: app.services.dialect, reachable },
        backplane,
      };
      // Without Redis an instance still serves the API and its own hub clients, so only the database takes it out of rotation.
      return reply.code(reachable ? 200 : 503).send(body);
    },
  );
};
