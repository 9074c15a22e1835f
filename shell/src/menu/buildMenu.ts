import { MENU_GROUPS, type MenuGroupId, type NavigationMenuEntry, type RemoteLocation, type RemoteNavigation } from 'shared-ui';
import type { RemoteStatus } from '../federation/remoteHealth';

export interface MenuGroupView {
  id: MenuGroupId;
  label: string;
  unavailable: boolean;
  entries: NavigationMenuEntry[];
}

/**
 * The side menu from the remotes' navigation: groups in the house order, entries by their order. A group
 * whose remote is down is listed as unavailable (so users see the area exists) with no entries.
 */
export function buildMenu(
  locations: RemoteLocation[],
  navigations: Record<string, RemoteNavigation | undefined>,
  status: Record<string, RemoteStatus | undefined>,
  visible: (entry: NavigationMenuEntry) => boolean,
): MenuGroupView[] {
  return MENU_GROUPS.flatMap((group) => {
    const owners = locations.filter((l) => l.groups.includes(group.id));
    const unavailable = owners.some((o) => status[o.name] === 'unavailable');
    const entries = owners
      .flatMap((o) => navigations[o.name]?.menu ?? [])
      .filter((e) => e.group === group.id && visible(e))
      .sort((a, b) => a.order - b.order);
    if (!unavailable && entries.length === 0) return [];
    return [{ id: group.id, label: group.label, unavailable, entries }];
  });
}
