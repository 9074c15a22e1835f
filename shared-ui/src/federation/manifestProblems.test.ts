import { manifestProblems } from './manifestProblems';

const page = () => Promise.resolve({ default: () => null });

describe('manifestProblems', () => {
  test('a sound manifest has none', () => {
    expect(
      manifestProblems({
        id: 'x',
        routes: [{ path: '/x/a', title: 'A', capability: 'canTrack', load: page }],
        menu: [{ group: 'tracking', label: 'A', path: '/x/a', icon: null, order: 1, capability: 'canTrack' }],
      }),
    ).toEqual([]);
  });

  test('names each broken part', () => {
    expect(manifestProblems(null)).toEqual(['manifest is not an object']);
    expect(manifestProblems({ routes: [], menu: [] })).toEqual(['id is missing']);
    expect(
      manifestProblems({
        id: 'x',
        routes: [
          { path: 'x', title: 'A', capability: 'canFly', load: page },
          { path: 'x', title: 'B', capability: 'canTrack' },
        ],
        menu: [{ group: 'nowhere', label: 'M', path: '/missing', icon: null, order: 1, capability: 'canTrack' }],
      }),
    ).toEqual([
      'route x does not start with /',
      'route x needs unknown capability canFly',
      'route x does not start with /',
      'route x is declared twice',
      'route x has no page loader',
      'menu entry M is in unknown group nowhere',
      'menu entry M points at /missing, which is not a route',
    ]);
  });
});
