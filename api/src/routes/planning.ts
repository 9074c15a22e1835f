import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Parameter planning runs and the operators' frequency plans (contracts/runs.ts, Parameters/*). */
export const planningRoutes: FastifyPluginAsyncTypebox = async () => {};
