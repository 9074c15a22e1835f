import path from 'node:path';
import { render } from '@testing-library/react';
import { createElement, type ReactElement } from 'react';
import { manifestProblems, navigationProblems } from '../federation/manifestProblems';
import { menuOf, type RemoteManifest, type RemoteNavigation } from '../federation/manifest';
import { MenuIcon } from '../federation/MenuIcon';

// The build's reader of src/manifest.tsx (tools/webpack/navigation.js), which writes navigation.json.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { navigationOf } = require(path.resolve(__dirname, '../../../tools/webpack/navigation.js')) as {
  navigationOf: (manifestFile: string) => RemoteNavigation;
};

/** The markup an icon draws, for comparing a manifest's icon element with navigation.json's SVG tree. */
function drawn(icon: ReactElement | null): string {
  if (icon === null) return '';
  const { container, unmount } = render(icon);
  const html = container.innerHTML;
  unmount();
  return html;
}

/**
 * The contract test every remote runs on its manifest: sound, exactly its routes of the
 * specification's route table (docs/architecture.md#federation-rules), every route loads a page component, and the navigation.json
 * its build writes from it (what the shell draws the menu from) says the same.
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

    test('its navigation.json has the same routes and menu, each icon drawn the same', () => {
      const navigation = navigationOf(path.resolve(__dirname, '../../..', remote, 'src/manifest.tsx'));
      expect(navigationProblems(JSON.parse(JSON.stringify(navigation)))).toEqual([]);
      expect(navigation.id).toBe(manifest.id);
      expect(navigation.routes).toEqual(manifest.routes.map(({ path: routePath, title, capability }) => ({ path: routePath, title, capability })));
      const menu = menuOf(manifest.routes);
      expect(navigation.menu.map(({ icon: _icon, ...entry }) => entry)).toEqual(menu.map(({ icon: _icon, ...entry }) => entry));
      navigation.menu.forEach((entry, k) => {
        const fromData = entry.icon ? createElement(MenuIcon, { icon: entry.icon }) : null;
        expect([entry.label, drawn(fromData)]).toEqual([entry.label, drawn(menu[k]!.icon as ReactElement | null)]);
        expect(drawn(fromData)).toContain('<svg');
      });
    });
  });
}
