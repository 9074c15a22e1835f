import { describeRemoteManifest } from 'shared-ui/testing';
import manifest from './manifest';

// The routes of the specification's route table that belong to this area (docs/architecture.md#federation-rules).
describeRemoteManifest('mfe-monitoring', manifest, [
  '/monitoring/uploadLogs',
  '/monitoring/faultManagement',
  '/monitoring/configurationManagement',
  '/monitoring/overallSiteSummary',
  '/monitoring/siteReport',
  '/dashboards/dashboardRollout',
]);
