import type { ComponentType, ReactNode } from 'react';
import type { Capability } from 'shared-auth';

/** Where a page sits in the side menu: a page states it beside its path, title and capability. */
export interface RouteMenuPlace<Icon = ReactNode> {
  group: MenuGroupId;
  icon: Icon;
  /** Position within the group. */
  order: number;
  /** Who sees the entry, when that is not who may open the page (Dashboard Rollout's menu entry). */
  capability?: Capability;
}

/** A page a remote contributes. The shell mounts it under the main layout and guards it with `capability`. */
export interface RemoteRoute {
  path: string;
  title: string;
  capability: Capability;
  /** Lazy so that loading a manifest costs nothing until the page is visited. */
  load: () => Promise<{ default: ComponentType }>;
  /** Its menu entry, labelled with its title; none for a page reached only by a link (Operator details). */
  menu?: RouteMenuPlace;
}

export type MenuGroupId = 'planning' | 'tracking' | 'validation' | 'optimization' | 'monitoring' | 'dashboards' | 'management';

/** A side-menu entry, derived from a route by {@link menuOf}. */
export interface RemoteMenuEntry<Icon = ReactNode> {
  group: MenuGroupId;
  label: string;
  path: string;
  icon: Icon;
  order: number;
  capability: Capability;
}

/**
 * The menu entries of a remote's routes, in the routes' order: each route with a menu place, labelled
 * with its title, shown to those of its capability unless its place names another. The one derivation:
 * the standalone frame, the manifest test and the build's navigation.json (tools/webpack/navigation.js,
 * which loads this file) all call it. Generic over the icon, which the build reads as a marker.
 */
export function menuOf<Icon>(
  routes: ReadonlyArray<Pick<RemoteRoute, 'path' | 'title' | 'capability'> & { menu?: RouteMenuPlace<Icon> | undefined }>,
): Array<RemoteMenuEntry<Icon>> {
  return routes.flatMap(({ path, title, capability, menu }) =>
    menu ? [{ group: menu.group, label: title, path, icon: menu.icon, order: menu.order, capability: menu.capability ?? capability }] : [],
  );
}

/** An SVG tree as @ant-design/icons-svg defines an icon; the shell draws it with the shared icon base. */
export interface IconNode {
  tag: string;
  attrs: Record<string, string>;
  children?: IconNode[];
}

export interface NavigationIcon {
  name: string;
  theme: string;
  icon: IconNode;
}

/**
 * A remote's manifest as data (`navigation.json` beside its mf-manifest.json, written by its build from
 * src/manifest.tsx): routes without their page loaders, menu entries with their icons as SVG trees. The
 * shell builds the menu and routes from it and loads the remote's code only when a page is opened.
 */
export interface RemoteNavigation {
  id: string;
  /** The release the remote was built as (its package's version unless the release stamped another). */
  version?: string;
  routes: Array<Omit<RemoteRoute, 'load' | 'menu'>>;
  menu: Array<RemoteMenuEntry<NavigationIcon | null>>;
}

export type NavigationMenuEntry = RemoteNavigation['menu'][number];

/**
 * The one thing each remote exposes (`./manifest`). The shell knows no page of a remote beyond this.
 * Each page is stated once, as a route; the menu is derived from the routes ({@link menuOf}).
 */
export interface RemoteManifest {
  id: string;
  routes: RemoteRoute[];
}

/** Menu groups in the order the side navigation shows them. */
export const MENU_GROUPS: ReadonlyArray<{ id: MenuGroupId; label: string }> = [
  { id: 'planning', label: 'Planning' },
  { id: 'tracking', label: 'Tracking' },
  { id: 'validation', label: 'Validation' },
  { id: 'optimization', label: 'Optimization' },
  { id: 'monitoring', label: 'Monitoring' },
  { id: 'dashboards', label: 'Dashboards' },
  { id: 'management', label: 'Management' },
];

/** One entry of `/config/remotes.json`: where a remote lives and which part of the console it owns. */
export interface RemoteLocation {
  id: string;
  /** The federation container name (webpack `name`). */
  name: string;
  /** URL of the remote's `mf-manifest.json`. */
  entry: string;
  /** Path prefixes the remote's pages live under; lets the shell show "unavailable" for them when the remote is down. */
  prefixes: string[];
  /** Menu groups the remote fills; shown as unavailable while it is down. */
  groups: MenuGroupId[];
}

export interface RuntimeConfig {
  remotes: RemoteLocation[];
}
