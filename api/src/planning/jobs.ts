import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { FrequencyPlan, RunResponse } from 'contracts';
import { planCluster, plannedCellsOf, PlanningError, type ClusterPlan, type LteBandLabel } from '../domain/planning';
import { JobRefusal, type JobKind, type TaskContext } from '../jobs/model';
import { runAnswerOutcome, runNotificationKey } from '../jobs/outcome';
import { previewOf, recordRun, writeRunWorkbook } from '../runs';
import { fileStamp } from '../tracking/exporter';
import { enginePlanOf } from './frequency-plans';
import { loadClusterSurroundings } from './network';
import { attachRun, dropPlan, reservePlan } from './reservations';
import { planFindings, planMessage, planSheets, planSummary } from './sheets';
import { NetworkIndex } from '../domain/planning/network-index';
import { planningScripts } from '../domain/scripts';
import { loadRelationScope } from '../network/scope';
import { prepareRunScripts } from '../runs/scripts';

/**
 * The parameter planning run (docs/engines/planning.md#parameter-planning-5g-nr-en-dc, docs/architecture.md#how-a-job-flows, issue 46): a job whose thread task reads the sites of the
 * run and their surroundings, plans them with the engine against the inventory and the reservations of
 * earlier plans, reserves the cells it planned, writes the workbook and records the run (history row,
 * kept workbook, the caller's export). Refusals record and reserve nothing.
 */

export const PLANNING_KIND = 'planning.parameters';

export interface PlanningParams {
  /** The sites of the run, in the order asked (deduplicated). */
  siteIds: string[];
  antenna: string;
  lteBands: LteBandLabel[];
  /** Plan the NR cells a site already has anew instead of keeping them. */
  replanExisting: boolean;
  /** The caller's current operator's plan, read when the run was asked for. */
  plan: FrequencyPlan;
  ownerId: number;
}

export const PLANNING_MESSAGES = {
  siteNotFound: (siteId: string) => `Site ${siteId.slice(0, 100)} not found.`,
  noBands: (siteId: string, bands: readonly string[]) =>
    `Site ${siteId} has no LTE cell on ${bands.join(', ')}: there is nothing to anchor the NR cells on. Choose a band the site has.`,
  noBandsAnywhere: (siteIds: readonly string[], bands: readonly string[]) =>
    `None of the sites ${siteIds.join(', ')} has an LTE cell on ${bands.join(', ')}: there is nothing to anchor the NR cells on. Choose a band the sites have.`,
  nothingPlanned: (reasons: readonly string[]) => `Nothing could be planned: ${reasons.join(' ')}`,
  onlyYourself: 'You can only run this as yourself.',
  unknownAntenna: (antenna: string, names: readonly string[]) => `Unknown antenna "${antenna.slice(0, 40)}": choose ${names.join(' or ')}.`,
  noBandChosen: (names: readonly string[]) => `Choose at least one LTE band (${names.join(', ')}).`,
  unknownBand: (band: string, names: readonly string[]) => `Unknown LTE band "${band.slice(0, 20)}": choose among ${names.join(', ')}.`,
  noSiteChosen: 'Choose at least one site.',
  tooManySites: (max: number) => `Choose at most ${max} sites for one run.`,
} as const;

/** The engine's lower-case reasons as a sentence. */
function sentence(text: string): string {
  const t = text.trim();
  return `${t.charAt(0).toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? '' : '.'}`;
}

/** `ParameterPlanning_LX0001_20260305-143000.xlsx` (several sites: the first and how many more), the ids kept to safe characters. */
export function planningFileName(siteIds: string | readonly string[], now = new Date()): string {
  const ids = typeof siteIds === 'string' ? [siteIds] : siteIds;
  const label = `${ids[0] ?? 'sites'}${ids.length > 1 ? `_and_${ids.length - 1}_more` : ''}`;
  return `ParameterPlanning_${label.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 60)}_${fileStamp(now)}.xlsx`;
}

async function userName(context: TaskContext, userId: number): Promise<string> {
  const user = await context.db.selectFrom('users').select(['firstname', 'lastname']).where('id', '=', userId).executeTakeFirst();
  return user ? `${user.firstname} ${user.lastname}` : `User ${userId}`;
}

/** What a run is about, in the notification: `LX0001`, or `3 sites (LX0001, LX0002, LX0003)`. */
export function runLabel(siteIds: readonly string[]): string {
  return siteIds.length === 1 ? (siteIds[0] as string) : `${siteIds.length} sites (${siteIds.join(', ')})`;
}

/** Thread task: plan, reserve, write, record. Answers the run's RunResponse; JobRefusal (404 / 400) records and reserves nothing. */
export async function parameterPlanningTask(params: PlanningParams, context: TaskContext): Promise<RunResponse> {
  const siteIds = [...new Set(params.siteIds)];
  context.progress(5, `Reading ${runLabel(siteIds)} and the surroundings`);
  const surroundings = await loadClusterSurroundings(context.db, siteIds);
  const unknown = surroundings.missing[0];
  if (unknown !== undefined) throw new JobRefusal(404, { message: PLANNING_MESSAGES.siteNotFound(unknown) });

  // A run whose every site lacks every chosen band has nothing to anchor on: refused, as a one-site run always was.
  const anchored = surroundings.sites.filter((s) => s.siteCells.some((c) => c.tech === '4G' && params.lteBands.includes(c.band as LteBandLabel)));
  if (anchored.length === 0) {
    throw new JobRefusal(400, {
      message:
        siteIds.length === 1 ? PLANNING_MESSAGES.noBands(siteIds[0] as string, params.lteBands) : PLANNING_MESSAGES.noBandsAnywhere(siteIds, params.lteBands),
    });
  }

  context.progress(30, `Planning the NR cells of ${runLabel(siteIds)}`);
  const planKey = randomUUID();
  let plan: ClusterPlan;
  try {
    plan = await reservePlan(context.db, planKey, (reserved) => {
      const result = planCluster({
        sites: surroundings.sites,
        network: surroundings.network,
        reserved,
        definedNeighbours: surroundings.definedNeighbours,
        antenna: params.antenna,
        lteBands: params.lteBands,
        replanExisting: params.replanExisting,
        plan: enginePlanOf(params.plan),
      });
      // Nothing planned: nothing reserved, and the refusal below says why.
      if (result.sites.length === 0) return { result, sites: [], cells: [] };
      return {
        result,
        sites: result.sites.map((s) => s.siteId),
        cells: plannedCellsOf(result).map((c) => ({
          siteId: c.siteId,
          cellName: c.name,
          nrArfcn: c.nrArfcn,
          pci: c.pci,
          prachRoot: c.prachRootSequence,
          tac: c.tac,
          lat: c.lat,
          lon: c.lon,
          azimuth: c.azimuth,
        })),
      };
    });
  } catch (error) {
    if (error instanceof PlanningError) throw new JobRefusal(400, { message: sentence(error.message) });
    throw error;
  }
  if (plan.sites.length === 0) throw new JobRefusal(400, { message: PLANNING_MESSAGES.nothingPlanned(plan.unplanned.map((u) => sentence(u.reason))) });

  try {
    context.progress(70, 'Writing the workbook');
    const runDate = new Date();
    // The anchors' relations and proxies (EN-DC) and the sites' NR cells (their gNB functions, a replan's old values).
    const siteCells = surroundings.sites.flatMap((s) => s.siteCells);
    const scope = await loadRelationScope(
      context.db,
      siteCells.filter((c) => c.tech === '4G'),
    );
    const inScope = new Set(scope.cells.map((c) => c.dn));
    const index = new NetworkIndex({ ...scope, cells: [...scope.cells, ...siteCells.filter((c) => !inScope.has(c.dn))] });
    const scripts = prepareRunScripts(context.dataDir, planningScripts(plan, index), {
      title: `Parameter planning of ${runLabel(siteIds)}`,
      tag: 'PLAN',
      date: runDate,
    });
    const sheets = planSheets(plan, {
      operator: params.plan.operatorName,
      requestedBands: params.lteBands,
      nrArfcn: params.plan.nrArfcn,
      nrBandwidthMhz: params.plan.nrBandwidthMhz,
      runBy: await userName(context, params.ownerId),
      runDate,
    });
    // Under dataDir: recordRun moves (renames) the workbook into the run store, on the same file system.
    const dir = path.join(context.dataDir, 'files', 'tmp');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `planning-${randomUUID()}.xlsx`);
    try {
      await writeRunWorkbook(file, sheets);
      context.progress(90, 'Recording the run');
      const findings = planFindings(sheets);
      const answer = await recordRun(context.db, context.dataDir, {
        kind: 'parameterPlanning',
        userId: params.ownerId,
        sites: siteIds,
        files: [],
        parameters: {
          antenna: plan.antenna,
          lteBands: params.lteBands,
          missingBands: [...new Set(plan.sites.flatMap((s) => s.missingBands))],
          replanExisting: params.replanExisting,
          operator: params.plan.operatorName,
        },
        jobId: null,
        message: planMessage(plan),
        summary: planSummary(plan),
        findings,
        preview: previewOf(findings[0] as (typeof findings)[number]),
        workbook: { file, fileName: planningFileName(siteIds, runDate) },
      });
      await attachRun(context.db, planKey, answer.runId);
      await scripts?.keep(answer.runId);
      return answer;
    } finally {
      fs.rmSync(file, { force: true });
    }
  } catch (error) {
    // Not recorded: what the plan reserved is freed at once (a crash instead is pruned after the grace period).
    await dropPlan(context.db, planKey);
    throw error;
  }
}

export function registerPlanningJobs(app: FastifyInstance): void {
  app.jobs.register<PlanningParams>({
    kind: PLANNING_KIND,
    label: 'Parameter planning',
    // Not repeated after a restart: each run is a history row of its own.
    idempotent: false,
    run: ({ params, progress, signal }) => app.runTask(PLANNING_KIND, params, progress, signal),
    notificationKey: (_params, _ok, body) => runNotificationKey('planning-parameters', body),
    outcome: runAnswerOutcome,
    notification: ({ ok, message, body }, params) => {
      if (!ok) return `Parameter planning of ${runLabel(params.siteIds)} not run: ${message}`;
      return (body as RunResponse | null)?.message ?? `Parameter planning of ${runLabel(params.siteIds)} done.`;
    },
  } satisfies JobKind<PlanningParams>);
}
