import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Neighbour relations validation runs (Validation/RunNbrRelationsValidation, template, history, export). */
export const neighbourValidationRoutes: FastifyPluginAsyncTypebox = async () => {};
