import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { RemoteLocation, RemoteManifest } from 'shared-ui';
import { fetchRuntimeConfig, loadManifest } from './remotes';
import { getRemoteHealth, subscribeRemoteHealth } from './remoteHealth';

export interface RemotesView {
  locations: RemoteLocation[];
  manifests: Record<string, RemoteManifest | undefined>;
  status: Record<string, 'loading' | 'ready' | 'unavailable' | undefined>;
  /** False until /config/remotes.json has been read: routes are not known before that. */
  configLoaded: boolean;
  configError: string | null;
  retry: (name: string) => void;
}

/**
 * Reads the runtime config and, once someone is signed in, loads every remote's manifest; one
 * failing remote leaves the others alone. Signed-out pages (login, recovery) need no remote, so
 * they do not pay for them.
 */
export function useRemotes(signedIn: boolean): RemotesView {
  const [locations, setLocations] = useState<RemoteLocation[]>([]);
  const [manifests, setManifests] = useState<Record<string, RemoteManifest | undefined>>({});
  const [configError, setConfigError] = useState<string | null>(null);
  const [configLoaded, setConfigLoaded] = useState(false);
  const { status } = useSyncExternalStore(subscribeRemoteHealth, getRemoteHealth);

  const load = useCallback((location: RemoteLocation, force: boolean) => {
    loadManifest(location, force).then(
      (manifest) => setManifests((m) => ({ ...m, [location.name]: manifest })),
      () => setManifests((m) => ({ ...m, [location.name]: undefined })),
    );
  }, []);

  useEffect(() => {
    fetchRuntimeConfig().then(
      (config) => {
        setLocations(config.remotes);
        setConfigLoaded(true);
      },
      (error: unknown) => setConfigError(error instanceof Error ? error.message : String(error)),
    );
  }, []);

  // A ref, not state: asking once is bookkeeping, not something to render.
  const requested = useRef(false);
  useEffect(() => {
    if (!signedIn || requested.current || locations.length === 0) return;
    requested.current = true;
    locations.forEach((l) => load(l, false));
  }, [signedIn, locations, load]);

  const retry = useCallback(
    (name: string) => {
      const location = locations.find((l) => l.name === name);
      if (location) load(location, true);
    },
    [load, locations],
  );

  return { locations, manifests, status, configLoaded, configError, retry };
}
