import { expect, test, type Page } from '@playwright/test';
import { SITE_REPORT_TABS } from 'contracts';
import { consoleForThisFile } from '../support/console';
import { ADMIN, signInByToken } from '../support/session';

/**
 * Issue 47 item 3: the site report at both widths of the walk. At 1440 every tab label reads whole (the
 * walk found 'Configuration Check NBIoT' as a 'C' sliver behind the overflow menu); at 390 the status
 * table fits the screen, with no sideways scrolling.
 */

const app = consoleForThisFile();
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const TABS = SITE_REPORT_TABS;
/** Where a look at the pages goes when asked for (CELLWISE_SHOTS=dir); none by default. */
const SHOTS = process.env.CELLWISE_SHOTS;

test.beforeEach(async ({ page }) => {
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort());
  await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
});

async function openReport(page: Page): Promise<void> {
  await page.goto(`${app.url}/monitoring/siteReport?siteId=LX0001`);
  await expect(page.getByRole('heading', { name: 'Site Report' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Summary' })).toBeVisible();
  await expect(page.locator('[role=tabpanel]:visible').getByText('Site Summary', { exact: true })).toBeVisible();
}

test('at 1440 every tab label reads whole, none hidden in an overflow menu', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await openReport(page);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/site-report-1440.png`, fullPage: true });
  await expect(page.locator('.ant-tabs-nav-operations:not(.ant-tabs-nav-operations-hidden)')).toHaveCount(0);
  for (const name of TABS) {
    const tab = page.getByRole('tab', { name, exact: true });
    await expect(tab).toBeVisible();
    const fit = await tab.evaluate((element) => {
      const label = element.closest('.ant-tabs-tab') ?? element;
      const nav = element.closest('.ant-tabs-nav-wrap')!.getBoundingClientRect();
      const box = label.getBoundingClientRect();
      return {
        scrollWidth: element.scrollWidth,
        clientWidth: element.clientWidth,
        inside: box.left >= nav.left - 0.5 && box.right <= nav.right + 0.5 && box.top >= nav.top - 0.5 && box.bottom <= nav.bottom + 0.5,
      };
    });
    expect(fit.scrollWidth, `tab '${name}' is clipped`).toBeLessThanOrEqual(fit.clientWidth);
    expect(fit.inside, `tab '${name}' lies outside the tab bar`).toBe(true);
  }
});

test('at 390 the status table fits the screen without sideways scrolling', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await openReport(page);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/site-report-390.png`, fullPage: true });
  const panel = page.locator('[role=tabpanel]:visible');
  // The site's statuses read on the screen as they are: a label beside each value.
  const summary = panel.getByRole('region', { name: 'Site Summary' });
  await expect(summary.getByText('Alarm Status', { exact: true }).first()).toBeInViewport();
  await expect(summary.locator('.ant-tag', { hasText: 'NOK' }).first()).toBeInViewport();
  const tables = panel.locator('.ant-table-content, .ant-table-body, .cw-report-rows, .ant-descriptions-view');
  expect(await tables.count()).toBeGreaterThan(0);
  for (const table of [panel, ...(await tables.all())]) {
    const { scrollWidth, clientWidth } = await table.evaluate((element) => ({ scrollWidth: element.scrollWidth, clientWidth: element.clientWidth }));
    expect(scrollWidth, 'the table scrolls sideways').toBeLessThanOrEqual(clientWidth);
  }
  const documentWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(documentWidth).toBeLessThanOrEqual(PHONE.width);
});

/** Issue 47 item 8, on the rollout dashboard: the site map at the specification's zoom 6 showed the 120 demo sites as one blob. */
test.describe('the site map', () => {
  const siteMap = (page: Page) => page.locator('.leaflet-container');
  const openMap = async (page: Page) => {
    await page.setViewportSize(DESKTOP);
    await page.goto(`${app.url}/dashboards/dashboardRollout`);
    await page.getByRole('tab', { name: 'Site map' }).click();
    await expect(siteMap(page)).toHaveAttribute('data-drawn-sites', /^[1-9]\d*$/);
  };

  test("opens fitted to the operator's sites, closer than the default zoom 6", async ({ page }) => {
    await openMap(page);
    expect(Number(await siteMap(page).getAttribute('data-zoom'))).toBeGreaterThan(6);
    // Fitted close enough that the demo's sites are each their own dot.
    await expect(page.locator('.cellwise-site-cluster')).toHaveCount(0);
  });

  test('groups close sites below zoom 9, each group named by its count and statuses; a click on one zooms in', async ({ page }) => {
    // A network the size of a country: 3,000 sites across mainland Portugal.
    await page.route('**/api/Monitoring/GetSiteMap', async (route) => {
      let seed = 15;
      const next = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
      const sites = Array.from({ length: 3000 }, (_, i) => ({
        id: `BM${String(i).padStart(5, '0')}`,
        name: `Bench ${i}`,
        lat: 37 + next() * 5.1,
        lon: -9.5 + next() * 3.3,
        technologies: ['4G'],
        status: next() < 0.2 ? 'NOK' : 'OK',
        alarmStatus: null,
        radioStatus: null,
        coreStatus: null,
        trackerId: null,
        sharedWith: null,
        shareMode: null,
      }));
      await route.fulfill({ json: { sites, withoutCoordinates: 0, tileUrl: 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png' } });
    });
    await openMap(page);
    await expect(siteMap(page)).toHaveAttribute('data-drawn-sites', '3000');
    const zoom = Number(await siteMap(page).getAttribute('data-zoom'));
    expect(zoom).toBeLessThan(9);
    const groups = page.locator('.cellwise-site-cluster');
    await expect(groups.first()).toBeVisible();
    const labels = await groups.evaluateAll((all) => all.map((g) => g.getAttribute('aria-label') ?? ''));
    expect(labels.length).toBeGreaterThan(1);
    expect(labels.length).toBeLessThan(100);
    for (const label of labels) expect(label).toMatch(/^\d+ sites?: .*Zoom in to see them\.$/);
    const grouped = labels.reduce((sum, label) => sum + Number(/^(\d+)/.exec(label)![1]), 0);
    expect(grouped).toBeGreaterThan(2000);
    await groups.first().click();
    await expect.poll(async () => Number(await siteMap(page).getAttribute('data-zoom'))).toBeGreaterThan(zoom);
  });
});
