import { Button, Card, Flex } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { JobProgressBar, PageContainer, RunHistoryTable, RunResultCard, SiteParamNotice, SiteSelect, useSiteParam, type RunRoutes } from 'shared-ui';
import { useSession } from 'shared-auth';
import { RunRefusal, siteSource, useValidationRun } from './validationRun';

/**
 * A page that runs one check on one site (RAN-share validation, health checks): the site select, the
 * run button, the job's progress while it runs, the run's result (message, verdict counts, every
 * finding; its workbook when asked for), and the history of past runs, each of which opens again. The run, its
 * job's progress and the inline refusal are the validation pages' (validationRun.tsx).
 */

/** The server's typed search over the inventory's sites: at most 20 options. */
export const findSites = siteSource('Validation/GetSites');

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
  /** The options of its site select (default: every site, `Validation/GetSites`). */
  sitesPath?: string;
  historyCaption: string;
  historyPath: string;
  /** The kind's findings and export calls (validationRun.tsx RUN_ROUTES). */
  routes: RunRoutes;
  runningText: string;
}

export function SiteRunPage(props: SiteRunPageProps) {
  const userId = useSession((s) => s.user.id);
  const sites = useMemo(() => (props.sitesPath ? siteSource(props.sitesPath) : findSites), [props.sitesPath]);
  // The site is the address's `?site=` (issue 47); one site per run, so a link naming several selects the first.
  const { sites: addressed, unknown, setSites } = useSiteParam(sites);
  const site = addressed[0] ?? null;
  const { job, running, outcome, run, shownRun, showRun } = useValidationRun(props.jobKind);
  // Bumped after each run: the history fetches again.
  const [version, setVersion] = useState(0);

  const start = async () => {
    if (!site || userId === null) return;
    await run(props.runPath, { [props.siteParam]: site, userId });
    setVersion((v) => v + 1);
  };

  return (
    <PageContainer title={props.title}>
      <Flex vertical gap={16}>
        <Card>
          <Flex vertical gap={12}>
            <Flex gap={12} wrap align="center">
              <SiteSelect
                value={site ?? undefined}
                onChange={(value) => {
                  const chosen = Array.isArray(value) ? value[0] : value;
                  setSites(chosen ? [chosen] : []);
                }}
                source={sites}
                style={{ width: 360, maxWidth: '100%' }}
              />
              <Button type="primary" icon={props.icon} disabled={!site || userId === null} loading={running} onClick={() => void start()}>
                {props.buttonText}
              </Button>
            </Flex>
            {running && <JobProgressBar job={job} label="Run progress" pendingText={props.runningText} style={{ maxWidth: 480 }} />}
            <SiteParamNotice unknown={unknown} />
            <RunRefusal outcome={outcome} />
          </Flex>
        </Card>
        {shownRun !== null && <RunResultCard runId={shownRun} routes={props.routes} title={`${props.title} Result`} />}
        <RunHistoryTable
          caption={props.historyCaption}
          historyPath={props.historyPath}
          routes={props.routes}
          fields={['user', 'sites']}
          onOpen={showRun}
          reloadKey={version}
        />
      </Flex>
    </PageContainer>
  );
}
