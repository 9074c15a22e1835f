import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Capability } from 'shared-auth/policy';
import { ErrorResponse, FileResponse, Id, type RunKind } from 'contracts';
import { FileServiceError } from '../files';
import { exportRunScripts } from '../runs/scripts';
import { fail, userIdOf } from './support';

/**
 * A run's corrective AMOS scripts (issue 46), one route per run kind beside its workbook export, with
 * the export's parameter and access: a fresh download of the run's zip through File/Download, 404 when
 * the run is not the caller's operator's or found nothing a command can correct.
 */

interface ScriptsRoute {
  path: string;
  kind: RunKind;
  /** The run id's parameter, as the kind's export route names it. */
  idParam: string;
  access: Capability;
  tag: string;
  what: string;
}

const ROUTES: readonly ScriptsRoute[] = [
  {
    path: '/Parameters/GetPlanningScripts',
    kind: 'parameterPlanning',
    idParam: 'parameterPlanningId',
    access: 'canPlan',
    tag: 'planning',
    what: 'parameter planning: crn of the planned NR cells (NRSectorCarrier, NRCellDU, NRCellCU), set of a replan on existing ones, and the EN-DC relations on the LTE anchors with their proxies',
  },
  {
    path: '/Validation/GetNbrRelationsValidationScripts',
    kind: 'nbrRelationsValidation',
    idParam: 'nbrRelationsValidationId',
    access: 'canValidate',
    tag: 'validation',
    what: 'neighbour relations validation: crn for MISSING relations (with the proxies of another node first), del for EXTRA relations allowed to go, set for stale external cells',
  },
  {
    path: '/Validation/GetCpichValidationScripts',
    kind: 'cpichValidation',
    idParam: 'cpichValidationId',
    access: 'canValidate',
    tag: 'validation',
    what: 'CPICH validation: set UtranCell primaryCpichPower to the recommended value (0.1 dBm), maximumTransmissionPower down to the radio capability',
  },
  {
    path: '/Optimization/GetNbrRelationsOptimizationScripts',
    kind: 'nbrRelationsOptimization',
    idParam: 'nbrRelationsOptimizationId',
    access: 'canOptimize',
    tag: 'optimization',
    what: 'neighbour relations optimisation: del for remove candidates, set isHoAllowed false for block candidates',
  },
];

export const runScriptsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.services;
  const dataDir = app.services.config.dataDir;
  for (const route of ROUTES) {
    app.get(
      route.path,
      {
        schema: {
          summary: `A past ${route.what.split(':')[0]}'s corrective AMOS scripts (zip: one .mos per node, its undo, README.txt, sites.txt); download with File/Download`,
          description: `${route.what}. Every script starts with confbd+ and gs+ and takes a CV backup (cvms) before any change; each command has a comment naming its finding. 404 for a run not found, or one that found nothing a command can correct.`,
          tags: [route.tag],
          security: [{ bearer: [] }],
          querystring: Type.Object({ [route.idParam]: Id }, { additionalProperties: false }),
          response: { 200: FileResponse, 404: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse },
        },
        config: { access: route.access },
      },
      async (request, reply) => {
        const runId = (request.query as Record<string, number>)[route.idParam]!;
        try {
          return reply.send({ file: await exportRunScripts(db, dataDir, route.kind, runId, userIdOf(request)) });
        } catch (error) {
          if (error instanceof FileServiceError) return fail(reply, error.statusCode, error.message);
          throw error;
        }
      },
    );
  }
};
