import { manifestProblems, navigationProblems } from './manifestProblems';

const page = () => Promise.resolve({ default: () => null });

describe('manifestProblems', () => {
  test('a sound manifest has none', () => {
    expect(
      manifestProblems({
        id: 'x',
        routes: [
          { path: '/x/a', title: 'A', capability: 'canTrack', load: page, menu: { group: 'tracking', icon: null, order: 1 } },
          { path: '/x/a/details', title: 'A details', capability: 'canTrack', load: page },
        ],
      }),
    ).toEqual([]);
  });

  test('names each broken part', () => {
    expect(manifestProblems(null)).toEqual(['manifest is not an object']);
    expect(manifestProblems({ routes: [] })).toEqual(['id is missing']);
    expect(
      manifestProblems({
        id: 'x',
        routes: [
          { path: 'x', title: 'A', capability: 'canFly', load: page },
          { path: 'x', title: '', capability: 'canTrack' },
          { path: '/m', title: 'M', capability: 'canTrack', load: page, menu: { group: 'nowhere', icon: null, order: 1, capability: 'canSoar' } },
          { path: '/n', title: 'N', capability: 'canTrack', load: page, menu: 'tracking' },
        ],
      }),
    ).toEqual([
      'route x does not start with /',
      'route x needs unknown capability canFly',
      'route x does not start with /',
      'route x is declared twice',
      'route x has no title',
      'route x has no page loader',
      'route /n has a menu place that is not an object',
      'menu entry M is in unknown group nowhere',
      'menu entry M needs unknown capability canSoar',
      'menu entry N is in unknown group undefined',
      'menu entry N has no order',
    ]);
  });
});

describe('navigationProblems', () => {
  const svg = { name: 'a', theme: 'outlined', icon: { tag: 'svg', attrs: {} } };

  test('a sound navigation has none', () => {
    expect(
      navigationProblems({
        id: 'x',
        routes: [{ path: '/x/a', title: 'A', capability: 'canTrack' }],
        menu: [{ group: 'tracking', label: 'A', path: '/x/a', icon: svg, order: 1, capability: 'canTrack' }],
      }),
    ).toEqual([]);
  });

  test('its menu is a list of entries that point at its routes, each icon an SVG tree', () => {
    expect(navigationProblems({ id: 'x', routes: [] })).toEqual(['menu is not a list']);
    expect(
      navigationProblems({
        id: 'x',
        routes: [{ path: '/x/a', title: 'A', capability: 'canTrack' }],
        menu: [{ group: 'tracking', label: 'M', path: '/missing', icon: svg, order: 1, capability: 'canTrack' }],
      }),
    ).toEqual(['menu entry M points at /missing, which is not a route']);
    expect(
      navigationProblems({
        id: 'x',
        routes: [{ path: '/x/a', title: 'A', capability: 'canTrack' }],
        menu: [{ group: 'tracking', label: 'A', path: '/x/a', icon: '<svg/>', order: 1, capability: 'canTrack' }],
      }),
    ).toEqual(['menu entry A has an icon that is not an SVG tree']);
  });
});
