import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** The MoBatch log parser's routes (contracts/monitoring.ts, Parser/*). */
export const parserRoutes: FastifyPluginAsyncTypebox = async () => {};
