import { Alert, Card, Flex } from 'antd';
import { useState } from 'react';
import type { RunResponse } from 'api/contracts';
import { api, errorMessage, useSession } from 'shared-auth';
import {
  downloadExport,
  ExportButton,
  FileDropZone,
  JobProgressBar,
  Note,
  PageContainer,
  RunHistoryTable,
  RunResultCard,
  uploadFiles,
  useFollowedJob,
  type ProgressReporter,
} from 'shared-ui';

/** Job kind of the run (the API's `optimization.neighbours`): its `JobProgress` events feed the bar. */
export const OPTIMIZATION_JOB_KIND = 'optimization.neighbours';

const RUNNING = 'Optimising…';

type Outcome = { result: RunResponse } | { refused: string };

export default function NbrRelationsOptimizationPage() {
  const userId = useSession((s) => s.user.id);
  // Bumped after each run: the history fetches again.
  const [version, setVersion] = useState(0);
  const { job, follow } = useFollowedJob(OPTIMIZATION_JOB_KIND);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const run = async (files: File[], onProgress: ProgressReporter) => {
    setOutcome(null);
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
      setOutcome({ result: data });
      // Specification §8: a run that wrote a workbook downloads it; download failures stay silent.
      if (data.file) void downloadExport(data.file).catch(() => undefined);
    } catch (error) {
      setOutcome({ refused: errorMessage(error) });
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
          {outcome && 'refused' in outcome && <Alert type="error" showIcon title={outcome.refused} data-testid="run-refusal" />}
          {outcome && 'result' in outcome && <RunResultCard result={outcome.result} title="Optimisation result" />}
        </Flex>
      </Card>
      <RunHistoryTable
        caption="Nbr Relations Optimization History"
        historyPath="Optimization/GetNbrRelationsOptimizationHistory"
        exportPath="Optimization/GetNbrRelationsOptimizationExport"
        idParam="nbrRelationsOptimizationId"
        fields={['user', 'sites', 'files']}
        reloadKey={version}
      />
    </PageContainer>
  );
}
