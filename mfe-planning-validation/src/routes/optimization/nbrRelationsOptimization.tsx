import { Alert, Card, Flex } from 'antd';
import { useState } from 'react';
import type { RunResponse } from 'contracts';
import { api, errorMessage, useSession } from 'shared-auth';
import {
  ExportButton,
  FileDropZone,
  JobProgressBar,
  Note,
  PageContainer,
  RunHistoryTable,
  RunResultCard,
  uploadFiles,
  useFollowedJob,
  useShownRun,
  type ProgressReporter,
} from 'shared-ui';
import { RUN_ROUTES } from '../../validation/validationRun';

/** Job kind of the run (the API's `optimization.neighbours`): its `JobProgress` events feed the bar. */
export const OPTIMIZATION_JOB_KIND = 'optimization.neighbours';

const RUNNING = 'Optimising…';

export default function NbrRelationsOptimizationPage() {
  const userId = useSession((s) => s.user.id);
  // Bumped after each run: the history fetches again.
  const [version, setVersion] = useState(0);
  const { job, follow } = useFollowedJob(OPTIMIZATION_JOB_KIND);
  const [refused, setRefused] = useState<string | null>(null);
  const [shownRun, showRun] = useShownRun();

  const run = async (files: File[], onProgress: ProgressReporter) => {
    setRefused(null);
    // An upload refusal (size, type, quota) is told by the API client's toast; the files stay for another try.
    const uploads = await uploadFiles(files, { onProgress });
    try {
      // The refusal is shown once, inline below the drop zone, so the API client's toast stays off.
      const { data } = await follow(() =>
        api.get<RunResponse>('Optimization/RunNbrRelationsOptimization', {
          params: { userId, filesPath: uploads.map((u) => u.uploadId).join(',') },
          skipLoading: true,
          skipErrorHandling: true,
        }),
      );
      // Shown on the page; its workbook downloads when the user asks for it.
      showRun(data.runId);
    } catch (error) {
      setRefused(errorMessage(error));
      throw error;
    } finally {
      setVersion((v) => v + 1);
    }
  };

  return (
    <PageContainer
      title="Nbr Relations Optimization"
      actions={<ExportButton path="Optimization/GetNbrRelationsOptimizationTemplate">Download template</ExportButton>}
    >
      <Card title="Handover statistics" size="small">
        <Flex vertical gap={12}>
          <Note paragraph style={{ margin: 0 }}>
            One row per relation and period: source cell, target cell, period, attempts, successes (Ericsson names such as EUtranCellFDD, neighborCellRef,
            pmHoExeAtt and pmHoExeSucc are read too). Relations without attempts are remove candidates, relations with a low success rate block candidates,
            strong handovers to cells that are not neighbours add candidates. The template&apos;s &lsquo;Read me&rsquo; gives the thresholds.
          </Note>
          <FileDropZone
            multiple
            acceptedTypes={['.xlsx']}
            onUpload={userId === null ? undefined : run}
            uploadLabel="Upload and optimise"
            processingLabel={RUNNING}
            processing={<JobProgressBar job={job} label="Run progress" pendingText={RUNNING} />}
          />
          {refused !== null && <Alert type="error" showIcon title={refused} data-testid="run-refusal" />}
        </Flex>
      </Card>
      {shownRun !== null && <RunResultCard runId={shownRun} routes={RUN_ROUTES.nbrRelationsOptimization} title="Optimisation result" />}
      <RunHistoryTable
        caption="Nbr Relations Optimization History"
        historyPath="Optimization/GetNbrRelationsOptimizationHistory"
        routes={RUN_ROUTES.nbrRelationsOptimization}
        fields={['user', 'sites', 'files']}
        onOpen={showRun}
        reloadKey={version}
      />
    </PageContainer>
  );
}
