import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { registerSharesOnce } from './registerSharesOnce';
import { reportRemoteFailure } from './remoteHealth';

/**
 * Registered in every page load by the host's federation config.
 * - The shell's shares are registered once, not before every shared import (registerSharesOnce).
 * - A remote that cannot be fetched (server down, manifest 404, script error) is reported so the shell
 *   can mark its area unavailable; the error still reaches the caller, whose RemoteBoundary renders the
 *   'unavailable' result.
 */
export default function cellwiseRuntimePlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'cellwise',
    init({ origin }) {
      registerSharesOnce(origin);
    },
    errorLoadRemote(args) {
      reportRemoteFailure(args.id, args.error);
      return undefined;
    },
  };
}
