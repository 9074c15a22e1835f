import { describeRemoteManifest } from 'shared-ui/testing';
import manifest from './manifest';

// The routes of the specification's route table that belong to this area (DESIGN §1).
describeRemoteManifest('mfe-monitoring', manifest, [
  '/monitoring/uploadLogs',
  '/monitoring/faultManagement',
  '/monitoring/configurationManagement',
  '/monitoring/overallSiteSummary',
  '/monitoring/siteReport',
  '/dashboards/dashboardRollout',
]);
