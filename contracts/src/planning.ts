import { Type, type Static } from '@sinclair/typebox';
import { Id } from './common';

/**
 * Parameter planning requests and answers of issue 46 (the run's answer itself is `RunResponse`, runs.ts):
 * a run plans one site or a cluster, keeps a site's NR cells unless asked to replan them, and reserves
 * what it planned until a dump shows it or the plan is discarded (`Parameters/DiscardPlan`).
 */

/** At most this many sites in one run (specification §5: a site select offers 20). */
export const MAX_PLANNING_SITES = 20;

/** `Parameters/RunParameterPlanning` (specification §7: siteId, antenna, lteBands joined by commas, userId). */
export const ParameterPlanningQuery = Type.Object(
  {
    siteId: Type.String({ minLength: 1, maxLength: 2100, description: `a site id, or up to ${MAX_PLANNING_SITES} comma-joined for a cluster` }),
    antenna: Type.String({ minLength: 1, maxLength: 40, description: 'AIR3227/78 or AIR6488' }),
    lteBands: Type.String({ maxLength: 100, description: 'comma-joined, at least one of L700, L800, L1800, L2100' }),
    userId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
    replanExisting: Type.Optional(
      Type.Boolean({ description: "plan a site's existing NR cells anew (default false: they keep their NR-ARFCN, PCIs and TAC)" }),
    ),
  },
  { additionalProperties: false },
);
export type ParameterPlanningQuery = Static<typeof ParameterPlanningQuery>;

/** `Parameters/DiscardPlan`: the run, as the export route names it. */
export const DiscardPlanRequest = Type.Object({ parameterPlanningId: Id }, { additionalProperties: false });
export type DiscardPlanRequest = Static<typeof DiscardPlanRequest>;

export const DiscardPlanResponse = Type.Object(
  {
    runId: Type.Integer(),
    /** Reserved NR cells freed (0 when a dump or a later plan of its sites had already released them). */
    freed: Type.Integer({ minimum: 0 }),
    message: Type.String(),
  },
  { additionalProperties: false },
);
export type DiscardPlanResponse = Static<typeof DiscardPlanResponse>;

/** The summary item a discarded run's history and result lead with. */
export const DISCARDED_LABEL = 'Discarded';
