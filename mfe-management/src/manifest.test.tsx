import { describeRemoteManifest } from 'shared-ui/testing';
import manifest from './manifest';

// The routes of the specification's route table that belong to this area (docs/architecture.md#federation-rules),
// with the page its external job-dashboard link opens.
describeRemoteManifest('mfe-management', manifest, ['/management/operators', '/management/operators/details/:tab?', '/management/users', '/management/jobs']);
