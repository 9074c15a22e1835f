import { expect, test, type Page } from '@playwright/test';
import { consoleForThisFile } from '../support/console';
import { ADMIN, signIn } from '../support/session';

const consoleApp = consoleForThisFile();

/** The theme's primary colour (shared-ui/src/theme/tokens.ts) as the browser computes it. */
const THEME_PRIMARY = 'rgb(11, 110, 121)';

/** One page of each remote, with the title it must show. */
const REMOTE_PAGES = [
  { remote: 'mfe_tracking', group: 'Tracking', label: 'Commissioning Plan', path: '/tracking/commissioningplan' },
  { remote: 'mfe_planning_validation', group: 'Validation', label: 'Cpich Validation', path: '/validation/cpichvalidation' },
  { remote: 'mfe_monitoring', group: 'Monitoring', label: 'Fault Management', path: '/monitoring/faultManagement' },
  { remote: 'mfe_management', group: 'Management', label: 'Users', path: '/management/users' },
];

interface SharedReport {
  [pkg: string]: { versions: string[]; providers: string[] };
}

/** What the federation runtime says it loaded for each singleton, across the host and every remote. */
async function sharedReport(page: Page): Promise<SharedReport> {
  return page.evaluate(() => {
    type Info = { from: string; loaded?: boolean; lib?: unknown };
    const share =
      (globalThis as unknown as { __FEDERATION__?: { __SHARE__?: Record<string, Record<string, Record<string, Record<string, Info>>>> } }).__FEDERATION__
        ?.__SHARE__ ?? {};
    const report: Record<string, { versions: string[]; providers: string[] }> = {};
    for (const scopes of Object.values(share)) {
      for (const packages of Object.values(scopes)) {
        for (const [pkg, versions] of Object.entries(packages)) {
          for (const [version, info] of Object.entries(versions)) {
            if (!info.loaded && !info.lib) continue;
            const entry = (report[pkg] ??= { versions: [], providers: [] });
            if (!entry.versions.includes(version)) entry.versions.push(version);
            if (!entry.providers.includes(info.from)) entry.providers.push(info.from);
          }
        }
      }
    }
    return report;
  });
}

test('the shell renders: / goes to /home with the company values, and the remotes from the runtime config its page carries', async ({ page }) => {
  await signIn(page, consoleApp.url, ADMIN.email, ADMIN.password);
  const configFetches: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/config/remotes.json') configFetches.push(request.url());
  });
  await page.goto(consoleApp.url + '/');
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole('heading', { name: 'Welcome to Cellwise' })).toBeVisible();
  for (const value of ['Customer focus', 'Excellence', 'Collaboration', 'Accountability', 'Passion']) {
    await expect(page.getByText(value, { exact: true })).toBeVisible();
  }
  // Every remote's menu group is drawn from the config in the page: no round trip waited for it.
  for (const group of ['Tracking', 'Planning', 'Monitoring', 'Management'])
    await expect(page.getByRole('menuitem', { name: group, exact: true })).toBeVisible();
  expect(configFetches).toEqual([]);
});

/** The title the server wrote into a console page's start frame (shell/src/boot-frame.html). */
function startFrameTitle(html: string): string | null {
  return /<div class="cw-boot-title">([^<]*)<\/div>/.exec(html)?.[1] ?? null;
}

test('a page opens with its start frame titled for it, in place while the session starts, gone once the shell draws the page under the same title', async ({
  page,
  request,
}) => {
  await signIn(page, consoleApp.url, ADMIN.email, ADMIN.password);
  // The shell's own pages and one page of each remote: the frame's title is the one the page draws.
  const pages = [
    ['/home', 'Welcome to Cellwise'],
    ['/notifications', 'Notifications'],
    ['/management/settings/general', 'Settings'],
    ...REMOTE_PAGES.map((p) => [p.path, p.label]),
  ];
  for (const [path, title] of pages) {
    expect([path, startFrameTitle(await (await request.get(consoleApp.url + path)).text())]).toEqual([path, title]);
    await page.goto(consoleApp.url + path);
    await expect(page.locator('.cw-page').getByRole('heading', { name: title, exact: true })).toBeVisible();
    await expect(page.locator('#cw-boot')).toHaveCount(0);
  }
  // The signed-out pages have none.
  expect(await (await request.get(consoleApp.url + '/auth/login')).text()).not.toContain('id="cw-boot"');

  // While the user's details are on their way, the frame is the page: no spinner over a blank screen.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/account/GetUserInfo', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(consoleApp.url + '/tracking/commissioningplan');
  await expect(page.locator('#cw-boot .cw-boot-title')).toHaveText('Commissioning Plan');
  await expect(page.locator('#cw-boot .cw-boot-title')).toBeVisible();
  await expect(page.locator('.ant-spin-fullscreen')).toHaveCount(0);
  await expect(page.locator('.cw-page, .cw-page-loading')).toHaveCount(0);
  release();
  await expect(page.locator('.cw-page').getByRole('heading', { name: 'Commissioning Plan', exact: true })).toBeVisible();
  await expect(page.locator('#cw-boot')).toHaveCount(0);
  await page.unroute('**/api/account/GetUserInfo');
});

test("antd runs without run-time styles: a remote's table takes antd's stylesheet and the theme's variables, and no component CSS is generated in the page", async ({
  page,
}) => {
  await signIn(page, consoleApp.url, ADMIN.email, ADMIN.password);
  await page.goto(consoleApp.url + '/tracking/commissioningplan');
  const header = page.locator('[data-remote="mfe_tracking"] .ant-table-thead th').first();
  await expect(header).toBeVisible();
  // Linked as print (not holding the start frame's paint), switched on before the console drew.
  await expect(page.locator('link#cw-antd-styles')).toHaveAttribute('media', 'all');
  // antd's rules from the stylesheet, the values from the CSS variables antd writes for the theme: a
  // token's (the table header's colorFillAlter) and a component token of the theme's own (the side
  // menu's selected item, darkItemSelectedBg: the brand colour).
  expect(await header.evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgb(250, 250, 250)');
  const selected = page.locator('.ant-menu-item-selected', { hasText: 'Commissioning Plan' });
  expect(await selected.evaluate((e) => getComputedStyle(e).backgroundColor)).toBe(THEME_PRIMARY);
  // With run-time styles every component would have written its rules into a <style> of its own.
  const generated = await page.evaluate(() =>
    Array.from(document.querySelectorAll('style'), (style) => style.textContent ?? '').filter((text) =>
      /\.ant-(table-thead|btn-primary|pagination-item)\b[^{]*\{/.test(text),
    ),
  );
  expect(generated).toEqual([]);
});

test("the console's page lists the chunks its start needs: the shell inserts none of them, and each is fetched once", async ({ page }) => {
  await signIn(page, consoleApp.url, ADMIN.email, ADMIN.password);
  // Script elements added once the HTML has been read, and whether the start frame was still up then.
  await page.addInitScript(() => {
    const inserted: { path: string; beforeFirstDraw: boolean }[] = [];
    (window as unknown as { __insertedScripts: typeof inserted }).__insertedScripts = inserted;
    new MutationObserver((records) => {
      if (document.readyState === 'loading') return;
      for (const record of records)
        record.addedNodes.forEach((node) => {
          if (node instanceof HTMLScriptElement && node.src)
            inserted.push({ path: new URL(node.src).pathname, beforeFirstDraw: document.getElementById('cw-boot') !== null });
        });
    }).observe(document, { childList: true, subtree: true });
  });
  const shellScriptsBeforeFirstDraw = async (path: string, ready: (p: Page) => Promise<void>) => {
    const requested: string[] = [];
    const onRequest = (request: { url: () => string }) => {
      const { pathname } = new URL(request.url());
      if (pathname.endsWith('.js')) requested.push(pathname);
    };
    page.on('request', onRequest);
    await page.goto(consoleApp.url + path);
    await ready(page);
    page.off('request', onRequest);
    const listed = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLScriptElement>('head script[src]'), (script) => new URL(script.src).pathname),
    );
    const inserted = await page.evaluate(() => (window as unknown as { __insertedScripts: { path: string; beforeFirstDraw: boolean }[] }).__insertedScripts);
    // Every listed chunk arrived, and nothing was fetched twice (a chunk both listed and inserted would be).
    for (const script of listed) expect(requested).toContain(script);
    expect(requested.length).toBe(new Set(requested).size);
    return { listed, early: inserted.filter((s) => s.beforeFirstDraw && !s.path.startsWith('/remotes/')).map((s) => s.path) };
  };
  const home = await shellScriptsBeforeFirstDraw('/home', (p) => expect(p.locator('[data-menu-group]')).toHaveCount(7));
  const table = await shellScriptsBeforeFirstDraw('/tracking/commissioningplan', (p) =>
    expect(p.locator('[data-remote="mfe_tracking"] .ant-table-thead th').first()).toBeVisible(),
  );
  // React, antd's foundation and the rest of the start: listed in the page, ahead of main.js.
  expect(home.listed.length).toBeGreaterThan(10);
  expect(home.listed.at(-1)).toMatch(/^\/main\.[0-9a-f]+\.js$/);
  expect(home.listed.some((script) => /^\/react-core\.[0-9a-f]+\.js$/.test(script))).toBe(true);
  // What the shell still inserts before the first draw is the page's own code: nothing both pages need.
  expect(home.early.filter((script) => table.early.includes(script))).toEqual([]);
});

test('unknown paths go to the 404 page', async ({ page }) => {
  await page.goto(consoleApp.url + '/no/such/page');
  await expect(page).toHaveURL(/\/errors\/error-404$/);
  await expect(page.getByText('The page you asked for does not exist.')).toBeVisible();
});

test('/home loads no remote; a page of each remote renders through the menu, each remote is fetched once when first opened, all share one React, store and antd context, and take the shell theme', async ({
  page,
}) => {
  const entryRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/remoteEntry.js')) entryRequests.push(new URL(request.url()).pathname);
  });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  await signIn(page, consoleApp.url, ADMIN.email, ADMIN.password);
  const shellStore = await page.locator('[data-shell-store-instance]').getAttribute('data-shell-store-instance');
  expect(shellStore).toBeTruthy();
  // /home draws every remote's menu group from its navigation.json and loads none of their code.
  await expect(page.locator('[data-menu-group]')).toHaveCount(7);
  expect(entryRequests).toEqual([]);

  let primaryButtonsSeen = 0;
  // Twice round the remotes: the second visit must not fetch any remote again.
  for (let round = 0; round < 2; round++) {
    for (const target of REMOTE_PAGES) {
      const group = page.getByRole('menuitem', { name: target.group, exact: true });
      if ((await page.getByRole('link', { name: target.label, exact: true }).count()) === 0) await group.click();
      await page.getByRole('link', { name: target.label, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`${target.path}$`));
      const area = page.locator(`[data-remote="${target.remote}"]`);
      await expect(area.getByRole('heading', { name: target.label, exact: true })).toBeVisible();
      // The page reads the store instance the shell uses: one shared-auth module, not a copy.
      await expect(area.locator('[data-store-instance]')).toHaveAttribute('data-store-instance', shellStore!);
      // The remote's buttons take the shell's theme: one antd ConfigProvider context reaches them.
      const primaries = area.locator('.ant-btn-primary:not([disabled])');
      for (const button of await primaries.all()) {
        primaryButtonsSeen += 1;
        expect(await button.evaluate((e) => getComputedStyle(e).backgroundColor)).toBe(THEME_PRIMARY);
      }
    }
  }
  expect(primaryButtonsSeen).toBeGreaterThan(0);

  expect(entryRequests.sort()).toEqual([
    '/remotes/mfe-management/remoteEntry.js',
    '/remotes/mfe-monitoring/remoteEntry.js',
    '/remotes/mfe-planning-validation/remoteEntry.js',
    '/remotes/mfe-tracking/remoteEntry.js',
  ]);

  // Dialogs load with their first opening (issue 48): the Users page's 'Add user' form comes in a later
  // chunk, and must still take antd's Form from the one shared copy.
  await page.locator('[data-remote="mfe_management"]').getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('dialog', { name: 'Add user' })).toBeVisible();
  await page.getByRole('dialog', { name: 'Add user' }).getByRole('button', { name: 'Cancel' }).click();

  const shared = await sharedReport(page);
  // antd is shared one component at a time (tools/webpack), each loaded once, so its contexts
  // (config, theme, form, locale, App) exist once. The runtime's `from` names whoever loaded a module
  // first (a remote, for a component the shell itself does not render); that only the shell can
  // provide one is the remotes' build configuration (shell/src/federation/sharing.test.ts).
  const antdComponents = Object.keys(shared).filter((pkg) => pkg.startsWith('antd/es/'));
  expect(antdComponents).toEqual(expect.arrayContaining(['antd/es/config-provider', 'antd/es/app', 'antd/es/button', 'antd/es/table', 'antd/es/form']));
  for (const pkg of antdComponents) expect([pkg, shared[pkg]?.versions.length]).toEqual([pkg, 1]);
  // The singletons, and the shared-ui module that holds page-wide state, come from the shell.
  for (const pkg of ['react', 'react-dom', '@ant-design/cssinjs', 'react-router-dom', 'zustand', 'shared-auth', 'shared-ui/src/toasts/jobOutcomes']) {
    expect([pkg, shared[pkg]?.versions.length, shared[pkg]?.providers]).toEqual([pkg, 1, ['shell']]);
  }
  expect(Object.keys(shared)).not.toContain('antd');
  expect(errors).toEqual([]);
});

test('a remote whose code fails to load while its navigation answers shows its area unavailable, and Retry loads it without a page reload', async ({
  page,
}) => {
  await signIn(page, consoleApp.url, ADMIN.email, ADMIN.password);
  // The first fetch of monitoring's entry fails, as a dropped connection would; the next ones go through.
  let entryFetches = 0;
  await page.route('**/remotes/mfe-monitoring/remoteEntry.js', (route) => (entryFetches++ === 0 ? route.abort('connectionreset') : route.continue()));
  await page.getByRole('menuitem', { name: 'Monitoring', exact: true }).click();
  await page.getByRole('link', { name: 'Fault Management', exact: true }).click();
  await expect(page.getByText('This area is unavailable')).toBeVisible();
  await expect(page.locator('[data-menu-group="monitoring"][data-unavailable="true"]')).toBeVisible();

  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.locator('[data-remote="mfe_monitoring"]').getByRole('heading', { name: 'Fault Management', exact: true })).toBeVisible();
  await expect(page.locator('[data-menu-group="monitoring"][data-unavailable="true"]')).toHaveCount(0);
  expect(entryFetches).toBe(2);
});
