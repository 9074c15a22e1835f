import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { manifestProblems, type RemoteLocation, type RemoteManifest, type RuntimeConfig } from 'shared-ui';
import { setRemoteStatus } from './remoteHealth';

/** Remote URLs are data: served by whoever deploys the console, read once per page load. */
export async function fetchRuntimeConfig(): Promise<RuntimeConfig> {
  const response = await fetch('/config/remotes.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`/config/remotes.json answered ${response.status}`);
  return (await response.json()) as RuntimeConfig;
}

/**
 * Loads a remote's `./manifest`. `force` drops what the federation runtime cached for it, so Retry
 * fetches the remote again after it failed.
 */
export async function loadManifest(location: RemoteLocation, force = false): Promise<RemoteManifest> {
  setRemoteStatus(location.name, 'loading');
  try {
    registerRemotes([{ name: location.name, entry: location.entry }], { force });
    const loaded = await loadRemote<{ default: RemoteManifest }>(`${location.name}/manifest`);
    const manifest = loaded?.default;
    const problems = manifestProblems(manifest);
    if (problems.length > 0) throw new Error(`${location.name} exposes an invalid ./manifest: ${problems.join('; ')}`);
    setRemoteStatus(location.name, 'ready');
    return manifest as RemoteManifest;
  } catch (error) {
    setRemoteStatus(location.name, 'unavailable', error);
    throw error;
  }
}
