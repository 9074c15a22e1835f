import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { cpichRoutes } from './validation-cpich';
import { neighbourValidationRoutes } from './validation-neighbours';
import { ranShareAndHealthRoutes } from './validation-ranshare-health';

/** Validation runs (contracts/runs.ts, Validation/*): one file per page's routes. */
export const validationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(cpichRoutes);
  await app.register(neighbourValidationRoutes);
  await app.register(ranShareAndHealthRoutes);
};
