import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { consoleForThisFile } from '../support/console';
import { tableOf } from '../support/locators';
import { pickOption } from '../support/select';
import { DEMO_PASSWORD, DEMO_USERS, signInByToken } from '../support/session';

/**
 * Operators as tenants in the console (issue 42), on the demo data: Vodafone PT's sites are LX…
 * (Lisbon), NOS's PO… (Porto) with Vodafone PT's LX0006, LX0016, LX0026 and LX0082 shared with it,
 * MEO's FA… (Faro), sharing nothing. CellwiseHQ belongs to Vodafone PT and MEO, CellwiseOS to
 * Vodafone PT, the Client to NOS.
 */
const app = consoleForThisFile();
test.use({ acceptDownloads: true });

/** Where the top bar's screenshots go (looked at by whoever changes it). */
const SHOTS = process.env.TENANCY_SCREENSHOTS_DIR ?? path.join(os.tmpdir(), 'cellwise-tenancy');
const NOS_SHARED = ['LX0006', 'LX0016', 'LX0026', 'LX0082'];

test.beforeAll(() => fs.mkdirSync(SHOTS, { recursive: true }));
test.beforeEach(async ({ page }) => {
  // No tile server is reachable from the tests, and none is needed: the sites draw without tiles.
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort());
});

const topBar = (page: Page) => page.locator('.ant-layout-header');
const switcher = (page: Page) => topBar(page).getByRole('combobox', { name: 'Current operator' });

/** Chooses an operator in the top bar, as a user does, and waits for the console to be in it. */
async function switchTo(page: Page, name: string): Promise<void> {
  const saved = page.waitForResponse((r) => r.url().includes('/api/Account/UpdateSettings') && r.request().method() === 'POST');
  await switcher(page).selectOption({ label: name });
  expect((await saved).status()).toBe(200);
  await expect(switcher(page).locator('option:checked')).toHaveText(name);
  // The side bar (wide screens only; a phone's is in the drawer) names the user's operator too.
  if ((page.viewportSize()?.width ?? 0) >= 992) await expect(page.locator('.ant-layout-sider')).toContainText(name);
}

/** The site ids the first rows of a page's first table name (its Equip/Local/Site columns). */
async function siteIdsShown(page: Page): Promise<string[]> {
  const rows = page.locator('.ant-table-wrapper').first().locator('.ant-table-tbody tr.ant-table-row');
  await expect(rows.first()).toBeVisible();
  const texts = await rows.allInnerTexts();
  return [...new Set(texts.flatMap((t) => t.match(/\b(LX|PO|FA)\d{4}\b/g) ?? []))];
}

const prefixes = (ids: string[]) => [...new Set(ids.map((id) => id.slice(0, 2)))].sort();

async function mapSites(page: Page): Promise<string[]> {
  await page.goto(`${app.url}/dashboards/dashboardRollout`);
  // Waited for only once the dashboard is open: the page before it (a site report) draws a map too, and its
  // answer, arriving as the browser navigates away, has no body left to read.
  const tab = page.getByRole('tab', { name: 'Site map' });
  await expect(tab).toBeVisible();
  const answer = page.waitForResponse((r) => r.url().includes('/api/Monitoring/GetSiteMap') && r.ok());
  await tab.click();
  const { sites } = (await (await answer).json()) as { sites: Array<{ id: string }> };
  await expect(page.locator('.leaflet-container')).toHaveAttribute('data-drawn-sites', String(sites.length));
  return sites.map((s) => s.id);
}

/** axe-core (4.x, installed with lighthouse) on the top bar: no violation of WCAG 2 A/AA rules. */
async function expectTopBarAccessible(page: Page): Promise<void> {
  // Evaluated through the browser's debugging protocol: the console's CSP (rightly) refuses an inline script tag.
  await page.evaluate(fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: Array<{ id: string; nodes: unknown[] }> }> } }).axe;
    const result = await axe.run('.ant-layout-header', { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => `${v.id} (${v.nodes.length})`);
  });
  expect(violations).toEqual([]);
}

test('CellwiseHQ switches from Vodafone PT to MEO in the top bar: plan, alarms, site report, map and runs are MEO’s, then Vodafone PT’s again', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInByToken(page, app.url, DEMO_USERS.CellwiseHQ, DEMO_PASSWORD);
  await page.goto(`${app.url}/tracking/commissioningplan`);
  await expect(switcher(page).locator('option:checked')).toHaveText('Vodafone PT');
  await expect(switcher(page).locator('option')).toHaveText(['MEO', 'Vodafone PT']);
  expect(prefixes(await siteIdsShown(page))).toEqual(['LX']);

  // The open page reloads for the new operator, with no sign-out.
  await switchTo(page, 'MEO');
  await expect(page).toHaveURL(/\/tracking\/commissioningplan$/);
  await expect.poll(async () => prefixes(await siteIdsShown(page))).toEqual(['FA']);

  await page.goto(`${app.url}/monitoring/faultManagement`);
  await expect(page.getByRole('button', { name: /^Show the alarms of FA\d{4}$/ }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: /^Show the alarms of LX\d{4}$/ })).toHaveCount(0);

  const report = page.waitForResponse((r) => r.url().includes('/api/Monitoring/GetSiteReport?'));
  await page.goto(`${app.url}/monitoring/siteReport?siteId=FA0001`);
  expect((await report).status()).toBe(200);
  await expect(tableOf(page, 'Site Summary')).toBeVisible();
  // Vodafone PT's site is not MEO's: as if it did not exist.
  const other = page.waitForResponse((r) => r.url().includes('/api/Monitoring/GetSiteReport?'));
  await page.goto(`${app.url}/monitoring/siteReport?siteId=LX0001`);
  expect((await other).status()).toBe(404);

  expect(prefixes(await mapSites(page))).toEqual(['FA']);

  // A run made in MEO is in MEO's history only.
  await page.goto(`${app.url}/validation/healthChecks`);
  await pickOption(page, 'Site', 'FA0001', /FA0001/);
  // A run shows its result on screen and downloads only when asked (issue 46).
  await page.getByRole('button', { name: /Get Health Checks$/ }).click();
  await expect(page.getByTestId('run-result')).toContainText(/Health checks of FA0001/, { timeout: 60_000 });
  const history = tableOf(page, 'Health Checks History');
  await expect(history.locator('tr.ant-table-row').filter({ hasText: 'FA0001' }).first()).toBeVisible();

  await switchTo(page, 'Vodafone PT');
  await expect(page).toHaveURL(/\/validation\/healthChecks(\?site=[^&]+)?$/);
  await expect(tableOf(page, 'Health Checks History')).toBeVisible();
  await expect(tableOf(page, 'Health Checks History').locator('tr.ant-table-row').filter({ hasText: 'FA0001' })).toHaveCount(0);
  await page.goto(`${app.url}/tracking/commissioningplan`);
  expect(prefixes(await siteIdsShown(page))).toEqual(['LX']);
  expect(prefixes(await mapSites(page))).toContain('LX');
});

test("a NOS Client's map shows NOS's sites and the ones shared with it, with no engineering link", async ({ page }) => {
  await signInByToken(page, app.url, DEMO_USERS.Client, DEMO_PASSWORD);
  await page.goto(`${app.url}/home`);
  // A Client sees its operator's name; it has nothing to switch to.
  await expect(topBar(page).getByTestId('current-operator')).toHaveText('Current operator: NOS');
  await expect(topBar(page).getByRole('combobox')).toHaveCount(0);

  const ids = await mapSites(page);
  expect(ids.filter((id) => id.startsWith('PO')).length).toBeGreaterThan(0);
  expect(ids.filter((id) => !id.startsWith('PO')).sort()).toEqual(NOS_SHARED);

  const select = page.getByLabel('Find a site on the map');
  await select.click();
  await select.fill('LX0016');
  await page.locator('.ant-select-item-option', { hasText: 'LX0016' }).first().click();
  const popup = page.locator('.leaflet-popup-content');
  await expect(popup).toContainText('LX0016');
  await expect(popup).toContainText('Overall status');
  await expect(popup.getByRole('link')).toHaveCount(0);
});

test("CellwiseOS cannot open a MEO-only site's report by its URL", async ({ page }) => {
  await signInByToken(page, app.url, DEMO_USERS.CellwiseOS, DEMO_PASSWORD);
  const own = page.waitForResponse((r) => r.url().includes('/api/Monitoring/GetSiteReport?'));
  await page.goto(`${app.url}/monitoring/siteReport?siteId=LX0001`);
  expect((await own).status()).toBe(200);
  await expect(tableOf(page, 'Site Summary')).toBeVisible();

  const meo = page.waitForResponse((r) => r.url().includes('/api/Monitoring/GetSiteReport?'));
  await page.goto(`${app.url}/monitoring/siteReport?siteId=FA0001`);
  expect((await meo).status()).toBe(404);
  await expect(tableOf(page, 'Site Summary')).toHaveCount(0);
  await expect(page.locator('.cw-page')).not.toContainText('FA0001 –');
});

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const) {
  test(`the top bar at ${width} px: the switcher is labelled, keyboard usable and fits; others see the name`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await signInByToken(page, app.url, DEMO_USERS.CellwiseHQ, DEMO_PASSWORD);
    await page.goto(`${app.url}/home`);
    const select = switcher(page);
    await expect(select).toBeVisible();
    await expect(topBar(page).getByRole('button', { name: 'Sign out' })).toBeVisible();
    // Everything in the bar is inside the screen.
    for (const box of [await select.boundingBox(), await topBar(page).getByRole('button', { name: 'Sign out' }).boundingBox()]) {
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
    }
    await expectTopBarAccessible(page);
    await topBar(page).screenshot({ path: path.join(SHOTS, `top-bar-hq-${width}.png`) });

    // Keyboard: reached by Tab, changed by the arrow keys (the native select's own behaviour).
    await select.focus();
    await expect(select).toBeFocused();
    const saved = page.waitForResponse((r) => r.url().includes('/api/Account/UpdateSettings'));
    await page.keyboard.press('ArrowUp');
    expect((await saved).status()).toBe(200);
    await expect(select.locator('option:checked')).toHaveText('MEO');
    await expect(page.locator('.cw-page')).toBeVisible();
    await switchTo(page, 'Vodafone PT');

    await signInByToken(page, app.url, DEMO_USERS.CellwiseOS, DEMO_PASSWORD);
    await page.goto(`${app.url}/home`);
    await expect(topBar(page).getByTestId('current-operator')).toHaveText('Current operator: Vodafone PT');
    await expectTopBarAccessible(page);
    await topBar(page).screenshot({ path: path.join(SHOTS, `top-bar-os-${width}.png`) });
  });
}
