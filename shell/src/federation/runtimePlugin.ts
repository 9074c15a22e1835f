import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { reportRemoteFailure } from './remoteHealth';

/**
 * Registered in every page load by the host's federation config. A remote that cannot be fetched
 * (server down, manifest 404, script error) is reported so the shell can mark its area unavailable;
 * the error still reaches the caller, whose RemoteBoundary renders the 'unavailable' result.
 */
export default function cellwiseRuntimePlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'cellwise-remote-health',
    errorLoadRemote(args) {
      reportRemoteFailure(args.id, args.error);
      return undefined;
    },
  };
}
