import { manifestProblems } from '../federation/manifestProblems';
import type { RemoteManifest } from '../federation/manifest';

/**
 * The contract test every remote runs on its manifest: sound, exactly its routes of the
 * specification's route table (DESIGN §1), and every route loads a page component.
 * Test-only: reached through `shared-ui/testing`, never from the package's runtime entry.
 */
export function describeRemoteManifest(remote: string, manifest: RemoteManifest, specRoutes: string[]): void {
  describe(`${remote} manifest`, () => {
    test('is sound and declares exactly its routes of the specification', () => {
      expect(manifestProblems(manifest)).toEqual([]);
      expect(manifest.routes.map((r) => r.path).sort()).toEqual([...specRoutes].sort());
    });

    test('every route loads a page component', async () => {
      for (const route of manifest.routes) {
        const page = await route.load();
        expect([route.path, typeof page.default]).toEqual([route.path, 'function']);
      }
    });
  });
}
