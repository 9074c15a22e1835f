import { startTransition, useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { RemoteLocation, RemoteNavigation } from 'shared-ui';
import { fetchRuntimeConfig, forgetManifest, loadNavigation, preloadPage, remoteOfPath } from './remotes';
import { getRemoteHealth, subscribeRemoteHealth } from './remoteHealth';

export interface RemotesView {
  locations: RemoteLocation[];
  /** Each remote's routes and menu entries (navigation.json); its code loads when one of its pages opens. */
  navigations: Record<string, RemoteNavigation | undefined>;
  status: Record<string, 'loading' | 'ready' | 'unavailable' | undefined>;
  /** False until /config/remotes.json has been read: routes are not known before that. */
  configLoaded: boolean;
  configError: string | null;
  retry: (name: string) => void;
}

/**
 * Reads the runtime config and, once someone is signed in, every remote's navigation.json; one failing
 * remote leaves the others alone. No remote's code loads here: a page loads its remote when opened.
 * Signed-out pages (login, recovery) need no remote, so they do not pay for them.
 */
export function useRemotes(signedIn: boolean): RemotesView {
  const [locations, setLocations] = useState<RemoteLocation[]>([]);
  const [navigations, setNavigations] = useState<Record<string, RemoteNavigation | undefined>>({});
  const [configError, setConfigError] = useState<string | null>(null);
  const [configLoaded, setConfigLoaded] = useState(false);
  const { status } = useSyncExternalStore(subscribeRemoteHealth, getRemoteHealth);

  const load = useCallback((location: RemoteLocation) => {
    loadNavigation(location).then(
      // Transitions: a navigation redraws the menu and the routes, never urgently.
      (navigation) => startTransition(() => setNavigations((n) => ({ ...n, [location.name]: navigation }))),
      () => startTransition(() => setNavigations((n) => ({ ...n, [location.name]: undefined }))),
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
    locations.forEach((l) => load(l));
    // The page being opened loads its remote and its own code now, beside the navigations, not after them.
    const opening = remoteOfPath(locations, window.location.pathname);
    if (opening) preloadPage(opening, window.location.pathname).catch(() => undefined); // a failure is shown by the page's boundary
  }, [signedIn, locations, load]);

  const retry = useCallback(
    (name: string) => {
      const location = locations.find((l) => l.name === name);
      if (!location) return;
      // The remote's code is fetched again by the page that asked for Retry.
      forgetManifest(name);
      load(location);
    },
    [load, locations],
  );

  return { locations, navigations, status, configLoaded, configError, retry };
}
