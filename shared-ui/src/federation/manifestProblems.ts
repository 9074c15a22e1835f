import { CAPABILITIES } from 'shared-auth';
import { MENU_GROUPS, type RemoteManifest } from './manifest';

/**
 * What is wrong with a value claiming to be a remote's manifest; empty when it is sound. The shell
 * checks every manifest it loads, and each remote's own test checks its manifest, so a broken
 * contract fails early with a readable reason.
 */
export function manifestProblems(value: unknown): string[] {
  if (!value || typeof value !== 'object') return ['manifest is not an object'];
  const manifest = value as Partial<RemoteManifest>;
  const problems: string[] = [];
  if (typeof manifest.id !== 'string' || manifest.id === '') problems.push('id is missing');
  if (!Array.isArray(manifest.routes)) problems.push('routes is not a list');
  if (!Array.isArray(manifest.menu)) problems.push('menu is not a list');
  if (problems.length > 0) return problems;
  const paths = new Set<string>();
  for (const route of manifest.routes!) {
    if (!route.path?.startsWith('/')) problems.push(`route ${route.path} does not start with /`);
    if (paths.has(route.path)) problems.push(`route ${route.path} is declared twice`);
    paths.add(route.path);
    if (!CAPABILITIES.includes(route.capability)) problems.push(`route ${route.path} needs unknown capability ${String(route.capability)}`);
    if (typeof route.load !== 'function') problems.push(`route ${route.path} has no page loader`);
  }
  for (const entry of manifest.menu!) {
    if (!MENU_GROUPS.some((g) => g.id === entry.group)) problems.push(`menu entry ${entry.label} is in unknown group ${String(entry.group)}`);
    if (!manifest.routes!.some((r) => r.path === entry.path)) problems.push(`menu entry ${entry.label} points at ${entry.path}, which is not a route`);
    if (!CAPABILITIES.includes(entry.capability)) problems.push(`menu entry ${entry.label} needs unknown capability ${String(entry.capability)}`);
  }
  return problems;
}
