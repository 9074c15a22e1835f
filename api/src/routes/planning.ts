import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { can } from 'shared-auth/policy';
import {
  DiscardPlanRequest,
  DiscardPlanResponse,
  ErrorResponse,
  FrequencyPlan,
  FrequencyPlanList,
  LTE_BAND_NAMES,
  MAX_PLANNING_SITES,
  ParameterPlanningQuery,
  RunResponse,
  SaveFrequencyPlanRequest,
} from 'contracts';
import { ANTENNA_NAMES, type LteBandLabel } from '../domain/planning';
import { FREQUENCY_PLAN_MESSAGES, frequencyPlanOf, frequencyPlanProblems, listFrequencyPlans, saveFrequencyPlan } from '../planning/frequency-plans';
import { PLANNING_KIND, PLANNING_MESSAGES, registerPlanningJobs, type PlanningParams } from '../planning/jobs';
import { DiscardRefusal, discardPlan } from '../planning/discard';
import { findSite } from '../planning/network';
import { registerRunRoutes } from '../runs/routes';
import { answerOf, fail, sessionOf, userIdOf } from './support';

/** The run's sites: comma-joined ids, trimmed, each once, in the order given; or the refusal's words. */
export function chosenSites(text: string): { siteIds: string[] } | { problem: string } {
  const siteIds = [
    ...new Set(
      text
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
  if (siteIds.length === 0) return { problem: PLANNING_MESSAGES.noSiteChosen };
  if (siteIds.length > MAX_PLANNING_SITES) return { problem: PLANNING_MESSAGES.tooManySites(MAX_PLANNING_SITES) };
  const long = siteIds.find((s) => s.length > 100);
  if (long !== undefined) return { problem: PLANNING_MESSAGES.siteNotFound(long) };
  return { siteIds };
}

/** The chosen bands in the stable order L700, L800, L1800, L2100, or the refusal's words. */
export function chosenBands(text: string): { bands: LteBandLabel[] } | { problem: string } {
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (items.length === 0) return { problem: PLANNING_MESSAGES.noBandChosen(LTE_BAND_NAMES) };
  const known = new Set<string>(LTE_BAND_NAMES);
  for (const item of items) if (!known.has(item.toUpperCase())) return { problem: PLANNING_MESSAGES.unknownBand(item, LTE_BAND_NAMES) };
  const upper = new Set(items.map((i) => i.toUpperCase()));
  return { bands: LTE_BAND_NAMES.filter((b) => upper.has(b)) };
}

/** Parameter planning runs and the operators' frequency plans (contracts/runs.ts, Parameters/*). */
export const planningRoutes: FastifyPluginAsyncTypebox = async (app) => {
  registerPlanningJobs(app);
  const tags = ['planning'];
  const { db } = app.services;
  const security = [{ bearer: [] }];
  const denied = { 401: ErrorResponse, 403: ErrorResponse };

  app.get(
    '/Parameters/RunParameterPlanning',
    {
      schema: {
        summary:
          "Plan a 5G NR EN-DC site on the caller's operator's frequency plan: NR cells per sector (NR-ARFCN, SSB GSCN, PCI, TAC, PRACH roots), " +
          'LTE anchors per chosen band, EN-DC relations and X2; one workbook, a history row and a notification. userId must be the caller',
        tags,
        security,
        querystring: ParameterPlanningQuery,
        response: { 200: RunResponse, 400: ErrorResponse, 404: ErrorResponse, ...denied },
      },
      config: { access: 'canPlan' },
    },
    async (request, reply) => {
      const userId = userIdOf(request);
      const { siteId, antenna, lteBands, userId: asked, replanExisting } = request.query;
      if (asked !== userId) return fail(reply, 403, PLANNING_MESSAGES.onlyYourself);
      if (!(ANTENNA_NAMES as readonly string[]).includes(antenna)) return fail(reply, 400, PLANNING_MESSAGES.unknownAntenna(antenna, ANTENNA_NAMES));
      const bands = chosenBands(lteBands);
      if ('problem' in bands) return fail(reply, 400, bands.problem);
      const sites = chosenSites(siteId);
      if ('problem' in sites) return fail(reply, 400, sites.problem);
      // Answered at once, without a job: an unknown site or a missing plan is the caller's to fix.
      for (const id of sites.siteIds) if (!(await findSite(db, id))) return fail(reply, 404, PLANNING_MESSAGES.siteNotFound(id));
      // The operator whose data the request works in (docs/tenancy.md): its plan, for its site.
      const operatorId = sessionOf(request).dataOperatorId;
      if (operatorId === null) return fail(reply, 400, FREQUENCY_PLAN_MESSAGES.noOperator);
      const plan = await frequencyPlanOf(db, operatorId);
      if (!plan) {
        const operator = await db.selectFrom('operators').select('name').where('id', '=', operatorId).executeTakeFirst();
        return fail(reply, 400, FREQUENCY_PLAN_MESSAGES.noPlan(operator?.name ?? `Operator ${operatorId}`));
      }
      const job = await app.jobs.run<PlanningParams>(PLANNING_KIND, userId, {
        siteIds: sites.siteIds,
        antenna,
        lteBands: bands.bands,
        replanExisting: replanExisting ?? false,
        plan,
        ownerId: userId,
      });
      request.log.info({ job: job.id, state: job.state, sites: sites.siteIds.length }, 'parameter planning finished');
      return answerOf(reply, job);
    },
  );

  app.post(
    '/Parameters/DiscardPlan',
    {
      schema: {
        summary:
          "Discard a parameter planning run: its reserved NR cells are freed for the next plans, and its history row and result say 'Discarded'. " +
          "The workbook stays. 404 for a run that is not the current operator's, 409 when already discarded",
        tags,
        security,
        body: DiscardPlanRequest,
        response: { 200: DiscardPlanResponse, 404: ErrorResponse, 409: ErrorResponse, ...denied },
      },
      config: { access: 'canPlan' },
    },
    async (request, reply) => {
      const user = await db.selectFrom('users').select(['firstname', 'lastname']).where('id', '=', userIdOf(request)).executeTakeFirst();
      try {
        return await discardPlan(db, request.body.parameterPlanningId, user ? `${user.firstname} ${user.lastname}` : `User ${userIdOf(request)}`);
      } catch (error) {
        if (error instanceof DiscardRefusal) return fail(reply, error.status, error.message);
        throw error;
      }
    },
  );

  registerRunRoutes(app, 'parameterPlanning', {
    historyPath: 'Parameters/GetPlanningHistory',
    exportPath: 'Parameters/GetParameterPlanningExport',
    findingsPath: 'Parameters/GetParameterPlanningFindings',
    idParam: 'parameterPlanningId',
    access: 'canPlan',
    tags,
    what: 'Parameter planning',
  });

  app.get(
    '/Parameters/GetFrequencyPlans',
    {
      schema: {
        summary: "Every operator's frequency plan: the n78 carrier (NR-ARFCN of its centre, bandwidth) and one DL EARFCN per LTE band",
        tags,
        security,
        response: { 200: FrequencyPlanList, ...denied },
      },
      config: { access: 'canPlan' },
    },
    async (request) => {
      const session = sessionOf(request);
      const plans = await listFrequencyPlans(db);
      // Administrators keep every operator's plan; others see those of the operators they work for.
      if (can(session.principal, 'canAdminister')) return plans;
      const mine = await db.selectFrom('user_operators').select('operator_id').where('user_id', '=', session.userId).execute();
      const theirs = new Set(mine.map((m) => m.operator_id));
      return plans.filter((plan) => theirs.has(plan.operatorId));
    },
  );

  app.post(
    '/Parameters/SaveFrequencyPlan',
    {
      schema: {
        summary:
          "Create or replace an operator's frequency plan (Administrators). The NR-ARFCN must be on the n78 30 kHz channel raster with the whole block inside n78; each EARFCN in its band's DL range",
        tags,
        security,
        body: SaveFrequencyPlanRequest,
        response: { 200: FrequencyPlan, 400: ErrorResponse, 404: ErrorResponse, ...denied },
      },
      config: { access: 'canAdminister' },
    },
    async (request, reply) => {
      const problems = frequencyPlanProblems(request.body);
      if (problems.length > 0) return fail(reply, 400, problems.join(' '));
      const saved = await saveFrequencyPlan(db, request.body, userIdOf(request));
      if (!saved) return fail(reply, 404, FREQUENCY_PLAN_MESSAGES.unknownOperator);
      return saved;
    },
  );
};
