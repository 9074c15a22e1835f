import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** RAN-share neighbour validation and health checks (Validation/RunRanShareNbrRelationsValidation, GetHealthChecksExport, histories). */
export const ranShareAndHealthRoutes: FastifyPluginAsyncTypebox = async () => {};
