import { PlayCircleOutlined } from '@ant-design/icons';
import { Button, Card, Flex } from 'antd';
import { useState } from 'react';
import { useSession } from 'shared-auth';
import {
  InfoBanner,
  JobProgressBar,
  Note,
  PageContainer,
  RunHistoryTable,
  RunResultCard,
  SiteParamNotice,
  SiteSelect,
  SITE_OPTION_LIMIT,
  useApiGet,
  useSiteParam,
} from 'shared-ui';
import { RUN_ROUTES, RunRefusal, siteSource, useValidationRun } from '../../validation/validationRun';

/** Job kind of the run (the API's `validation.cpich`): its progress feeds the bar. */
export const CPICH_JOB_KIND = 'validation.cpich';

const findUtranSites = siteSource('Validation/GetUtranSites');

export default function CpichValidationPage() {
  const userId = useSession((s) => s.user.id);
  // The chosen sites are the address's `?site=A,B` (issue 47), so a copied link or a move from the site report keeps them.
  const { sites, unknown, setSites } = useSiteParam(findUtranSites);
  // Bumped after each run: the banner and the history fetch again.
  const [version, setVersion] = useState(0);
  const date = useApiGet<string | null>('Validation/GetLastUtranCellsDate', null, version);
  const { job, running, outcome, run, shownRun, showRun } = useValidationRun(CPICH_JOB_KIND);
  const tooMany = sites.length > SITE_OPTION_LIMIT;

  const start = async () => {
    if (userId === null) return;
    await run('Validation/RunCpichValidation', { sites: sites.join(','), userId });
    setVersion((v) => v + 1);
  };

  return (
    <PageContainer title="Cpich Validation">
      <InfoBanner label="UTRAN cells date" date={date.data} loading={date.loading} fallback="Dump date unavailable!" />
      <Card title="Validate CPICH power" size="small">
        <Flex vertical gap={12}>
          <Note paragraph style={{ margin: 0 }}>
            Every UTRAN cell of the chosen sites: primaryCpichPower against maximumTransmissionPower (0.1 dBm). ERROR when CPICH ≥ max or max is above the
            radio&apos;s capability; WARNING when CPICH is outside max − 12 dB … max − 8 dB or a site&apos;s sectors differ by more than 2 dB.
          </Note>
          <Flex gap={12} wrap align="center">
            <SiteSelect
              multiple
              value={sites}
              onChange={(value) => setSites(Array.isArray(value) ? value : [value])}
              source={findUtranSites}
              placeholder="Select sites with UTRAN cells"
              style={{ minWidth: 'min(360px, 100%)', maxWidth: '100%' }}
            />
            <Button
              type="primary"
              icon={<PlayCircleOutlined />}
              disabled={sites.length === 0 || tooMany || userId === null}
              loading={running}
              onClick={() => void start()}
            >
              Run Validation
            </Button>
          </Flex>
          {tooMany && <Note tone="danger">At most {SITE_OPTION_LIMIT} sites per run.</Note>}
          {running && <JobProgressBar job={job} label="Validating progress" pendingText="Validating…" testId="run-progress" />}
          <SiteParamNotice unknown={unknown} />
          <RunRefusal outcome={outcome} />
        </Flex>
      </Card>
      {shownRun !== null && <RunResultCard runId={shownRun} routes={RUN_ROUTES.cpichValidation} title="Cpich Validation Result" />}
      <RunHistoryTable
        caption="Cpich Validation History"
        historyPath="Validation/GetCpichValidationHistory"
        routes={RUN_ROUTES.cpichValidation}
        fields={['user', 'sites']}
        onOpen={showRun}
        reloadKey={version}
      />
    </PageContainer>
  );
}
