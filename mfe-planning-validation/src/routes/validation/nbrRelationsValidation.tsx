import { Card, Flex } from 'antd';
import { useState } from 'react';
import { useSession } from 'shared-auth';
import {
  ExportButton,
  FileDropZone,
  InfoBanner,
  LazyJobProgressBar,
  Note,
  PageContainer,
  RunHistoryTable,
  RunResultCard,
  SiteParamNotice,
  SiteSelect,
  uploadFiles,
  useApiGet,
  useSiteParam,
  type ProgressReporter,
} from 'shared-ui';
import { RUN_ROUTES, RunRefusal, siteSource, useValidationRun } from '../../validation/validationRun';

/** Job kind of the run (the API's `validation.neighbours`): its progress feeds the bar once the upload is through. */
export const NBR_JOB_KIND = 'validation.neighbours';

const findSites = siteSource('Validation/GetSites');

export default function NbrRelationsValidationPage() {
  const userId = useSession((s) => s.user.id);
  // The site is the address's `?site=` (issue 47); one site per run, so a link naming several selects the first.
  const { sites, unknown, setSites } = useSiteParam(findSites);
  const site = sites[0] ?? null;
  // Bumped after each run: the banner and the history fetch again.
  const [version, setVersion] = useState(0);
  const date = useApiGet<string | null>('Validation/GetLastNbrRelationsDate', null, version);
  const { job, outcome, run, shownRun, showRun } = useValidationRun(NBR_JOB_KIND);

  const validate = async (files: File[], onProgress: ProgressReporter) => {
    if (userId === null || site === null) return;
    // An upload refusal (size, type, quota) is told by the API client's toast; the files stay for another try.
    const uploads = await uploadFiles(files, { onProgress });
    const next = await run('Validation/RunNbrRelationsValidation', { site, userId, filesPath: uploads.map((u) => u.uploadId).join(',') });
    setVersion((v) => v + 1);
    // A refused run keeps the files listed, so a corrected site or another try needs no new drop.
    if ('refused' in next) throw new Error(next.refused);
  };

  return (
    <PageContainer title="Nbr Relations Validation" actions={<ExportButton path="Validation/GetNbrRelationsTemplate">Download template</ExportButton>}>
      <InfoBanner label="Neighbour relations date" date={date.data} loading={date.loading} fallback="Dump date unavailable!" />
      <Card title="Validate planned neighbour relations" size="small">
        <Flex vertical gap={12}>
          <Note paragraph style={{ margin: 0 }}>
            Choose the site, then drop the planned-relations workbooks (.xlsx, Source Cell and Target Cell columns; see the template). Each planned relation is
            checked against the dump: OK, MISSING, WRONG, and EXTRA for relations nobody planned.
          </Note>
          <SiteSelect
            value={site ?? undefined}
            onChange={(value) => {
              const chosen = Array.isArray(value) ? value[0] : value;
              setSites(chosen ? [chosen] : []);
            }}
            source={findSites}
            style={{ width: 360, maxWidth: '100%' }}
          />
          <FileDropZone
            multiple
            acceptedTypes={['.xlsx']}
            onUpload={userId === null || site === null ? undefined : validate}
            uploadLabel="Upload and validate"
            processingLabel="Validating…"
            // The bar shows only once files are dropped, so it loads then (issue 48's page budget).
            processing={<LazyJobProgressBar job={job} label="Validating progress" pendingText="Validating…" testId="run-progress" />}
          />
          {site === null && unknown.length === 0 && <Note>Choose a site to validate.</Note>}
          <SiteParamNotice unknown={unknown} />
          <RunRefusal outcome={outcome} />
        </Flex>
      </Card>
      {shownRun !== null && <RunResultCard runId={shownRun} routes={RUN_ROUTES.nbrRelationsValidation} title="Nbr Relations Validation Result" />}
      <RunHistoryTable
        caption="Nbr Relations Validation History"
        historyPath="Validation/GetNbrRelationsValidationHistory"
        routes={RUN_ROUTES.nbrRelationsValidation}
        fields={['user', 'sites', 'files']}
        onOpen={showRun}
        reloadKey={version}
      />
    </PageContainer>
  );
}
