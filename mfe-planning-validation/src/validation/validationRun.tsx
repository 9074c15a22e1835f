import { Alert } from 'antd';
import { useCallback, useState } from 'react';
import type { RunResponse } from 'contracts';
import { api, errorMessage, isApiError } from 'shared-auth';
import { useFollowedJob, useShownRun, type RunRoutes, type SiteOption } from 'shared-ui';

/**
 * What the validation pages (CPICH, neighbour relations, and the site run pages: RAN share, health
 * checks) share: the run call followed by its job's progress, the run it recorded shown at once (its
 * id in the address, `?run=`), and the refusal said once, inline (a 599 is a warning, specification §8).
 */

/** Each run kind's findings and export calls, as the API names them (runs/routes.ts registerRunRoutes). */
export const RUN_ROUTES = {
  cpichValidation: {
    findingsPath: 'Validation/GetCpichValidationFindings',
    exportPath: 'Validation/GetCpichValidationExport',
    idParam: 'cpichValidationId',
    scriptsPath: 'Validation/GetCpichValidationScripts',
  },
  nbrRelationsValidation: {
    findingsPath: 'Validation/GetNbrRelationsValidationFindings',
    exportPath: 'Validation/GetNbrRelationsValidationExport',
    idParam: 'nbrRelationsValidationId',
    scriptsPath: 'Validation/GetNbrRelationsValidationScripts',
  },
  ranShareValidation: { findingsPath: 'Validation/GetRanShareValidationFindings', exportPath: 'Validation/GetRanShareValidationExport', idParam: 'runId' },
  healthChecks: { findingsPath: 'Validation/GetHealthChecksFindings', exportPath: 'Validation/GetHealthChecksRunExport', idParam: 'runId' },
  nbrRelationsOptimization: {
    findingsPath: 'Optimization/GetNbrRelationsOptimizationFindings',
    exportPath: 'Optimization/GetNbrRelationsOptimizationExport',
    idParam: 'nbrRelationsOptimizationId',
    scriptsPath: 'Optimization/GetNbrRelationsOptimizationScripts',
  },
  parameterPlanning: {
    findingsPath: 'Parameters/GetParameterPlanningFindings',
    exportPath: 'Parameters/GetParameterPlanningExport',
    idParam: 'parameterPlanningId',
    scriptsPath: 'Parameters/GetPlanningScripts',
  },
} as const satisfies Record<string, RunRoutes>;

export type RunOutcome = { result: RunResponse } | { refused: string; warning: boolean };

/** Site options from one of the validation site lists (`Validation/GetUtranSites`, `Validation/GetSites`). */
export const siteSource = (path: string) => async (query: string) => (await api.get<SiteOption[]>(path, { params: { query }, skipLoading: true })).data;

/**
 * Calls a run and follows the progress of its job (`kind`, e.g. 'validation.cpich'): the first job
 * of that kind to report after the call starts is this run's.
 */
export function useValidationRun(kind: string) {
  const { job, follow } = useFollowedJob(kind);
  const [running, setRunning] = useState(false);
  const [outcome, setOutcome] = useState<RunOutcome | null>(null);
  const [shownRun, showRun] = useShownRun();

  const run = useCallback(
    async (path: string, params: Record<string, string | number>): Promise<RunOutcome> => {
      setRunning(true);
      setOutcome(null);
      let next: RunOutcome;
      try {
        // The refusal is shown inline, so the API client's toast stays off; the job's notification tells the rest.
        const { data } = await follow(() => api.get<RunResponse>(path, { params, skipLoading: true, skipErrorHandling: true }));
        next = { result: data };
        showRun(data.runId);
      } catch (error) {
        next = { refused: errorMessage(error), warning: isApiError(error) && error.response?.status === 599 };
      } finally {
        setRunning(false);
      }
      setOutcome(next);
      return next;
    },
    [follow, showRun],
  );

  return { job, running, outcome, run, shownRun, showRun };
}

export function RunRefusal({ outcome }: { outcome: RunOutcome | null }) {
  if (!outcome || !('refused' in outcome)) return null;
  return <Alert type={outcome.warning ? 'warning' : 'error'} showIcon title={outcome.refused} data-testid="run-refusal" />;
}
