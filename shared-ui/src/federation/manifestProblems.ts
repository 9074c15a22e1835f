import { CAPABILITIES } from 'shared-auth';
import { MENU_GROUPS, menuOf, type RemoteMenuEntry, type RemoteNavigation, type RemoteRoute } from './manifest';

/**
 * What is wrong with a value claiming to be a remote's manifest; empty when it is sound. The shell
 * checks every manifest it loads, and each remote's own test checks its manifest, so a broken
 * contract fails early with a readable reason.
 */
export function manifestProblems(value: unknown): string[] {
  return contractProblems(value, 'manifest');
}

/**
 * What is wrong with a remote's navigation.json (the manifest as data, {@link RemoteNavigation}): the
 * manifest's rules, routes without page loaders, and each icon an SVG tree or none.
 */
export function navigationProblems(value: unknown): string[] {
  const problems = contractProblems(value, 'navigation');
  if (problems.length > 0) return problems;
  for (const entry of (value as RemoteNavigation).menu) {
    const icon = entry.icon as unknown;
    if (icon !== null && (typeof icon !== 'object' || typeof (icon as { icon?: { tag?: unknown } }).icon?.tag !== 'string')) {
      problems.push(`menu entry ${entry.label} has an icon that is not an SVG tree`);
    }
  }
  return problems;
}

function contractProblems(value: unknown, kind: 'manifest' | 'navigation'): string[] {
  if (!value || typeof value !== 'object') return [`${kind} is not an object`];
  const manifest = value as { id?: unknown; routes?: unknown; menu?: unknown };
  const problems: string[] = [];
  if (typeof manifest.id !== 'string' || manifest.id === '') problems.push('id is missing');
  if (!Array.isArray(manifest.routes)) problems.push('routes is not a list');
  // A manifest states its menu in its routes; navigation.json carries the menu derived from them.
  if (kind === 'navigation' && !Array.isArray(manifest.menu)) problems.push('menu is not a list');
  if (problems.length > 0) return problems;
  const routes = manifest.routes as RemoteRoute[];
  const paths = new Set<string>();
  for (const route of routes) {
    if (!route.path?.startsWith('/')) problems.push(`route ${route.path} does not start with /`);
    if (paths.has(route.path)) problems.push(`route ${route.path} is declared twice`);
    paths.add(route.path);
    if (!CAPABILITIES.includes(route.capability)) problems.push(`route ${route.path} needs unknown capability ${String(route.capability)}`);
    if (typeof route.title !== 'string' || route.title === '') problems.push(`route ${route.path} has no title`);
    if (kind === 'manifest' && typeof route.load !== 'function') problems.push(`route ${route.path} has no page loader`);
    if (kind === 'manifest' && route.menu !== undefined && (typeof route.menu !== 'object' || route.menu === null)) {
      problems.push(`route ${route.path} has a menu place that is not an object`);
    }
  }
  const menu: RemoteMenuEntry<unknown>[] = kind === 'manifest' ? menuOf(routes) : (manifest.menu as RemoteMenuEntry<unknown>[]);
  for (const entry of menu) {
    if (!MENU_GROUPS.some((g) => g.id === entry.group)) problems.push(`menu entry ${entry.label} is in unknown group ${String(entry.group)}`);
    if (!routes.some((r) => r.path === entry.path)) problems.push(`menu entry ${entry.label} points at ${entry.path}, which is not a route`);
    if (!CAPABILITIES.includes(entry.capability)) problems.push(`menu entry ${entry.label} needs unknown capability ${String(entry.capability)}`);
    if (typeof entry.order !== 'number') problems.push(`menu entry ${entry.label} has no order`);
  }
  return problems;
}
