import type { RemoteLocation, RemoteNavigation } from 'shared-ui';
import { buildMenu } from './buildMenu';

const locations: RemoteLocation[] = [
  { id: 'tracking', name: 'mfe_tracking', entry: '/t.json', prefixes: ['/tracking'], groups: ['tracking'] },
  { id: 'management', name: 'mfe_management', entry: '/m.json', prefixes: ['/management'], groups: ['management'] },
];
const entry = (group: 'tracking' | 'management', label: string, order: number) => ({
  group,
  label,
  order,
  path: `/${group}/${label}`,
  icon: null,
  capability: 'authenticated' as const,
});
const tracking: RemoteNavigation = { id: 'tracking', routes: [], menu: [entry('tracking', 'b', 2), entry('tracking', 'a', 1)] };
const management: RemoteNavigation = { id: 'management', routes: [], menu: [entry('management', 'users', 1)] };

describe('buildMenu', () => {
  test('groups in house order, entries sorted', () => {
    const menu = buildMenu(locations, { mfe_tracking: tracking, mfe_management: management }, { mfe_tracking: 'ready', mfe_management: 'ready' }, () => true);
    expect(menu.map((g) => g.label)).toEqual(['Tracking', 'Management']);
    expect(menu[0]!.entries.map((e) => e.label)).toEqual(['a', 'b']);
  });

  test('a dead remote keeps its group, marked unavailable, and the rest is untouched', () => {
    const menu = buildMenu(locations, { mfe_management: management }, { mfe_tracking: 'unavailable', mfe_management: 'ready' }, () => true);
    expect(menu).toEqual([
      { id: 'tracking', label: 'Tracking', unavailable: true, entries: [] },
      { id: 'management', label: 'Management', unavailable: false, entries: [expect.objectContaining({ label: 'users' })] },
    ]);
  });

  test('entries the user may not see are dropped, and so are groups left empty', () => {
    const menu = buildMenu(locations, { mfe_tracking: tracking, mfe_management: management }, {}, (e) => e.group !== 'management');
    expect(menu.map((g) => g.id)).toEqual(['tracking']);
  });
});
