import { PlayCircleOutlined } from '@ant-design/icons';
import { SiteRunPage } from '../../validation/siteRunPage';
import { RUN_ROUTES } from '../../validation/validationRun';

/** The API's job kind of the run (`validation.ranShare`). */
export const RANSHARE_JOB_KIND = 'validation.ranShare';

export default function RanShareNbrRelationsValidationPage() {
  return (
    <SiteRunPage
      title="RanShare Nbr Relations Validation"
      buttonText="RanShare Nbr Relations Validation"
      icon={<PlayCircleOutlined />}
      runPath="Validation/RunRanShareNbrRelationsValidation"
      siteParam="site"
      // Only the sites recorded as shared with or by the current operator can be RAN-share validated.
      sitesPath="Validation/GetRanShareSites"
      jobKind={RANSHARE_JOB_KIND}
      runningText="Validating the shared relations…"
      historyCaption="RanShare Nbr Relations Validation History"
      historyPath="Validation/GetRanShareValidationHistory"
      routes={RUN_ROUTES.ranShareValidation}
    />
  );
}
