import { manifestProblems } from 'shared-ui';
import manifest from './manifest';

// The routes of the specification's route table that belong to this area (DESIGN §1).
const SPEC_ROUTES = ['/management/operators', '/management/operators/details/:tab?', '/management/users'];

describe('mfe-management manifest', () => {
  test('is sound and declares exactly its routes of the specification', () => {
    expect(manifestProblems(manifest)).toEqual([]);
    expect(manifest.routes.map((r) => r.path).sort()).toEqual([...SPEC_ROUTES].sort());
  });

  test('every route loads a page component', async () => {
    for (const route of manifest.routes) {
      const page = await route.load();
      expect([route.path, typeof page.default]).toEqual([route.path, 'function']);
    }
  });
});
