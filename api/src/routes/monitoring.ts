import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Monitoring's query routes (contracts/monitoring.ts, Monitoring/*). */
export const monitoringRoutes: FastifyPluginAsyncTypebox = async () => {};
