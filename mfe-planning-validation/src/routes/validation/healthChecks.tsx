import { MedicineBoxOutlined } from '@ant-design/icons';
import { SiteRunPage } from '../../validation/siteRunPage';
import { RUN_ROUTES } from '../../validation/validationRun';

/** The API's job kind of the run (`validation.healthChecks`). */
export const HEALTH_CHECKS_JOB_KIND = 'validation.healthChecks';

export default function HealthChecksPage() {
  return (
    <SiteRunPage
      title="Health Checks"
      buttonText="Get Health Checks"
      icon={<MedicineBoxOutlined />}
      runPath="Validation/GetHealthChecksExport"
      siteParam="siteId"
      jobKind={HEALTH_CHECKS_JOB_KIND}
      runningText="Checking the site…"
      historyCaption="Health Checks History"
      historyPath="Validation/GetHealthChecksHistory"
      routes={RUN_ROUTES.healthChecks}
    />
  );
}
