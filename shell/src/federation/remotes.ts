import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';
import { matchPath } from 'react-router-dom';
import { manifestProblems, navigationProblems, type RemoteLocation, type RemoteManifest, type RemoteNavigation, type RuntimeConfig } from 'shared-ui';
import { setRemoteStatus } from './remoteHealth';

/** Where the server puts the runtime config in the console's page (api/src/web/frontends.ts). */
export const RUNTIME_CONFIG_ELEMENT_ID = 'cellwise-runtime-config';

/** The runtime config the page was served with; null when it carries none (a static server, a dev server) or it is unreadable. */
function runtimeConfigOfPage(): RuntimeConfig | null {
  const text = document.getElementById(RUNTIME_CONFIG_ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    const config = JSON.parse(text) as Partial<RuntimeConfig> | null;
    return Array.isArray(config?.remotes) ? (config as RuntimeConfig) : null;
  } catch {
    return null;
  }
}

/**
 * Remote URLs are data: served by whoever deploys the console, read once per page load. The page carries
 * them, so the remotes start loading as soon as the shell runs; without them, they are fetched.
 */
export async function fetchRuntimeConfig(): Promise<RuntimeConfig> {
  const ofPage = runtimeConfigOfPage();
  if (ofPage) return ofPage;
  const response = await fetch('/config/remotes.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`/config/remotes.json answered ${response.status}`);
  return (await response.json()) as RuntimeConfig;
}

/** A remote's navigation.json sits beside the entry the runtime config names (its build writes both). */
export function navigationUrl(location: RemoteLocation): string {
  return new URL('navigation.json', new URL(location.entry, window.location.href)).href;
}

/**
 * A remote's routes and menu entries (navigation.json): what the shell needs to draw the menu and know
 * the remote's pages, without loading any of its code. Its answer decides whether the area is up.
 */
export async function loadNavigation(location: RemoteLocation): Promise<RemoteNavigation> {
  setRemoteStatus(location.name, 'loading');
  try {
    const url = navigationUrl(location);
    const response = await fetch(url, { cache: 'no-store' });
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    const navigation: unknown = await response.json();
    const problems = navigationProblems(navigation);
    if (problems.length > 0) throw new Error(`${location.name} has an invalid navigation.json: ${problems.join('; ')}`);
    setRemoteStatus(location.name, 'ready');
    return navigation as RemoteNavigation;
  } catch (error) {
    setRemoteStatus(location.name, 'unavailable', error);
    throw error;
  }
}

/** The remote whose area holds `path` (its prefixes), if any. */
export function remoteOfPath(locations: readonly RemoteLocation[], path: string): RemoteLocation | undefined {
  return locations.find((l) => l.prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`)));
}

/** Each remote's `./manifest`, asked for once: the first of its pages opened loads it, the others reuse it. */
const manifests = new Map<string, Promise<RemoteManifest>>();
/** How many times each remote's code was dropped (Retry, or a failed load): a page loaded before is stale. */
const generations = new Map<string, number>();

/** Drops what was loaded of a remote's code, so its next page fetches the remote again. */
export function forgetManifest(name: string): void {
  manifests.delete(name);
  generations.set(name, manifestGeneration(name) + 1);
}

/** Changes whenever the remote's code was dropped: a lazy page made before it must not be reused (React keeps its failure). */
export function manifestGeneration(name: string): number {
  return generations.get(name) ?? 0;
}

/**
 * Loads a remote's `./manifest`, the first time one of its pages is opened. A failure marks the area
 * unavailable (its menu group says so) and is thrown to the page's boundary.
 */
export function loadManifest(location: RemoteLocation): Promise<RemoteManifest> {
  let loading = manifests.get(location.name);
  if (loading) return loading;
  // A remote loaded again was dropped before: the federation runtime's cached copy of it must go.
  const force = manifestGeneration(location.name) > 0;
  loading = (async () => {
    registerRemotes([{ name: location.name, entry: location.entry }], { force });
    const loaded = await loadRemote<{ default: RemoteManifest }>(`${location.name}/manifest`);
    const manifest = loaded?.default;
    const problems = manifestProblems(manifest);
    if (problems.length > 0) throw new Error(`${location.name} exposes an invalid ./manifest: ${problems.join('; ')}`);
    return manifest as RemoteManifest;
  })();
  manifests.set(location.name, loading);
  loading.catch((error: unknown) => {
    forgetManifest(location.name);
    setRemoteStatus(location.name, 'unavailable', error);
  });
  return loading;
}

/** The page of one of a remote's routes, from its manifest. */
export async function loadPage(location: RemoteLocation, path: string): Promise<{ default: ComponentType }> {
  const manifest = await loadManifest(location);
  const route = manifest.routes.find((r) => r.path === path);
  if (!route) throw new Error(`${location.name} lists ${path} in its navigation.json but its manifest has no such page`);
  return route.load();
}

/**
 * Starts loading the page at `pathname` (one of the remote's routes, parameters included) as soon as its
 * remote's manifest is in, so the page's code is on its way before the router gets to it.
 */
export async function preloadPage(location: RemoteLocation, pathname: string): Promise<void> {
  const manifest = await loadManifest(location);
  const route = manifest.routes.find((r) => matchPath({ path: r.path, end: true }, pathname) !== null);
  if (route) await route.load();
}
