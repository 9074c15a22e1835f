import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** CPICH validation runs (Validation/RunCpichValidation, history, export). */
export const cpichRoutes: FastifyPluginAsyncTypebox = async () => {};
