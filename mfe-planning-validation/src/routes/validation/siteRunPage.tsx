import { Alert, Button, Card, Flex } from 'antd';
import { useState, type ReactNode } from 'react';
import type { RunResponse, SiteOption } from 'api/contracts';
import { api, errorMessage, useSession } from 'shared-auth';
import { JobProgressBar, PageContainer, RunHistoryTable, RunResultCard, SiteSelect, downloadExport, useFollowedJob } from 'shared-ui';

/**
 * A page that runs one check on one site (RAN-share validation, health checks): the site select, the
 * run button, the job's progress while it runs, the answer (message, verdict counts, first rows; its
 * workbook downloads at once), and the history of past runs with each run's workbook.
 */

/** The server's typed search over the inventory's sites: at most 20 options. */
export async function findSites(query: string): Promise<SiteOption[]> {
  const { data } = await api.get<SiteOption[]>('Validation/GetSites', { params: { query }, skipLoading: true });
  return data;
}

export interface SiteRunPageProps {
  title: string;
  /** The button's text, exactly as the specification's route table says it. */
  buttonText: string;
  icon: ReactNode;
  /** The run call and the name of its site parameter (specification §7). */
  runPath: string;
  siteParam: 'site' | 'siteId';
  /** The API's job kind of the run: its `JobProgress` events feed the bar. */
  jobKind: string;
  historyCaption: string;
  historyPath: string;
  exportPath: string;
  runningText: string;
}

type Outcome = { result: RunResponse } | { refused: string; warning: boolean };

const statusOf = (error: unknown): number | undefined => (error as { response?: { status?: number } } | null)?.response?.status;

export function SiteRunPage(props: SiteRunPageProps) {
  const userId = useSession((s) => s.user.id);
  const [site, setSite] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const { job, follow } = useFollowedJob(props.jobKind);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // Bumped after each run: the history fetches again.
  const [version, setVersion] = useState(0);

  const run = async () => {
    if (!site || userId === null) return;
    setRunning(true);
    setOutcome(null);
    try {
      // A refusal is said once, inline, so the API client's toast stays off.
      const { data } = await follow(() =>
        api.get<RunResponse>(props.runPath, {
          params: { [props.siteParam]: site, userId },
          skipLoading: true,
          skipErrorHandling: true,
        }),
      );
      setOutcome({ result: data });
      if (data.file) {
        try {
          await downloadExport(data.file);
        } catch {
          // The workbook stays a click away on the result and in the history.
        }
      }
    } catch (error) {
      setOutcome({ refused: errorMessage(error), warning: statusOf(error) === 599 });
    } finally {
      setRunning(false);
      setVersion((v) => v + 1);
    }
  };

  return (
    <PageContainer title={props.title}>
      <Flex vertical gap={16}>
        <Card>
          <Flex vertical gap={12}>
            <Flex gap={12} wrap align="center">
              <SiteSelect
                value={site ?? undefined}
                onChange={(value) => setSite((Array.isArray(value) ? value[0] : value) ?? null)}
                source={findSites}
                style={{ width: 360, maxWidth: '100%' }}
              />
              <Button type="primary" icon={props.icon} disabled={!site || userId === null} loading={running} onClick={() => void run()}>
                {props.buttonText}
              </Button>
            </Flex>
            {running && <JobProgressBar job={job} label="Run progress" pendingText={props.runningText} style={{ maxWidth: 480 }} />}
            {outcome && 'refused' in outcome && (
              <Alert type={outcome.warning ? 'warning' : 'error'} showIcon title={outcome.refused} data-testid="run-refusal" />
            )}
          </Flex>
        </Card>
        {outcome && 'result' in outcome && <RunResultCard result={outcome.result} />}
        <RunHistoryTable
          caption={props.historyCaption}
          historyPath={props.historyPath}
          exportPath={props.exportPath}
          idParam="runId"
          fields={['user', 'sites']}
          reloadKey={version}
        />
      </Flex>
    </PageContainer>
  );
}
