import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { FrequencyPlan, RunResponse } from '../contracts/runs';
import { planSiteParameters, PlanningError, type LteBandLabel } from '../domain/planning';
import { JobRefusal, type JobKind, type TaskContext } from '../jobs/model';
import { runAnswerOutcome, runNotificationKey } from '../jobs/outcome';
import { previewOf, recordRun, writeRunWorkbook } from '../runs';
import { fileStamp } from '../tracking/exporter';
import { enginePlanOf } from './frequency-plans';
import { loadPlanningSurroundings } from './network';
import { planMessage, planSheets, planSummary } from './sheets';

/**
 * The parameter planning run (DESIGN §7.4, §9): a job whose thread task reads the site and its
 * surroundings, plans with the engine, writes the workbook and records the run (history row, kept
 * workbook, the caller's export) in one place. Refusals record nothing.
 */

export const PLANNING_KIND = 'planning.parameters';

export interface PlanningParams {
  siteId: string;
  antenna: string;
  lteBands: LteBandLabel[];
  /** The caller's current operator's plan, read when the run was asked for. */
  plan: FrequencyPlan;
  ownerId: number;
}

export const PLANNING_MESSAGES = {
  siteNotFound: (siteId: string) => `Site ${siteId} not found.`,
  noBands: (siteId: string, bands: readonly string[]) =>
    `Site ${siteId} has no LTE cell on ${bands.join(', ')}: there is nothing to anchor the NR cells on. Choose a band the site has.`,
  onlyYourself: 'You can only run this as yourself.',
  unknownAntenna: (antenna: string, names: readonly string[]) => `Unknown antenna "${antenna.slice(0, 40)}": choose ${names.join(' or ')}.`,
  noBandChosen: (names: readonly string[]) => `Choose at least one LTE band (${names.join(', ')}).`,
  unknownBand: (band: string, names: readonly string[]) => `Unknown LTE band "${band.slice(0, 20)}": choose among ${names.join(', ')}.`,
} as const;

/** The engine's lower-case reasons as a sentence. */
function sentence(text: string): string {
  const t = text.trim();
  return `${t.charAt(0).toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? '' : '.'}`;
}

/** `ParameterPlanning_LX0001_20260305-143000.xlsx`, the site id kept to safe characters. */
export function planningFileName(siteId: string, now = new Date()): string {
  return `ParameterPlanning_${siteId.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 60)}_${fileStamp(now)}.xlsx`;
}

async function userName(context: TaskContext, userId: number): Promise<string> {
  const user = await context.db.selectFrom('users').select(['firstname', 'lastname']).where('id', '=', userId).executeTakeFirst();
  return user ? `${user.firstname} ${user.lastname}` : `User ${userId}`;
}

/** Thread task: plan, write, record. Answers the run's RunResponse; JobRefusal (404 / 400) records nothing. */
export async function parameterPlanningTask(params: PlanningParams, context: TaskContext): Promise<RunResponse> {
  context.progress(5, `Reading ${params.siteId} and its surroundings`);
  const surroundings = await loadPlanningSurroundings(context.db, params.siteId);
  if (!surroundings) throw new JobRefusal(404, { message: PLANNING_MESSAGES.siteNotFound(params.siteId) });

  const present = new Set(surroundings.siteCells.filter((c) => c.tech === '4G').map((c) => c.band));
  const missingBands = params.lteBands.filter((b) => !present.has(b));
  if (missingBands.length === params.lteBands.length) throw new JobRefusal(400, { message: PLANNING_MESSAGES.noBands(params.siteId, params.lteBands) });

  context.progress(30, `Planning the NR cells of ${params.siteId}`);
  let plan;
  try {
    plan = planSiteParameters({
      site: surroundings.site,
      siteCells: surroundings.siteCells,
      network: surroundings.network,
      definedNeighbours: surroundings.definedNeighbours,
      antenna: params.antenna,
      lteBands: params.lteBands,
      plan: enginePlanOf(params.plan),
    });
  } catch (error) {
    if (error instanceof PlanningError) throw new JobRefusal(400, { message: sentence(error.message) });
    throw error;
  }
  // The engine names a band missing when it has no cell the band's label or EARFCN says is on it.
  const missing = params.lteBands.filter((b) => !plan.anchors.some((a) => a.band === b));

  context.progress(70, 'Writing the workbook');
  const runDate = new Date();
  const sheets = planSheets(plan, {
    operator: params.plan.operatorName,
    requestedBands: params.lteBands,
    missingBands: missing,
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
    return await recordRun(context.db, context.dataDir, {
      kind: 'parameterPlanning',
      userId: params.ownerId,
      sites: [params.siteId],
      files: [],
      parameters: { antenna: plan.antenna, lteBands: params.lteBands, missingBands: missing, operator: params.plan.operatorName },
      jobId: null,
      message: planMessage(plan, missing),
      summary: planSummary(plan, missing),
      preview: previewOf(sheets[0] as (typeof sheets)[number]),
      workbook: { file, fileName: planningFileName(params.siteId, runDate) },
    });
  } finally {
    fs.rmSync(file, { force: true });
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
      if (!ok) return `Parameter planning of ${params.siteId} not run: ${message}`;
      return (body as RunResponse | null)?.message ?? `Parameter planning of ${params.siteId} done.`;
    },
  } satisfies JobKind<PlanningParams>);
}
