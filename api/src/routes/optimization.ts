import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Neighbour relations optimisation runs (Optimization/*). */
export const optimizationRoutes: FastifyPluginAsyncTypebox = async () => {};
