import { describeRemoteManifest } from 'shared-ui/testing';
import manifest from './manifest';

// The routes of the specification's route table that belong to this area (docs/architecture.md#federation-rules).
describeRemoteManifest('mfe-management', manifest, ['/management/operators', '/management/operators/details/:tab?', '/management/users']);
