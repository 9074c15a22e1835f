import { expect, test, type Locator, type Page } from '@playwright/test';
import { consoleForThisFile } from '../support/console';
import { ADMIN, signInByToken } from '../support/session';

// The console with its demo data and no BI server configured: the rollout dashboard draws the console's
// own charts, and the site map shows the demo network. No tile server is reachable from the tests (and
// none should be needed): every tile request is refused, and the sites must still draw.
const app = consoleForThisFile();

interface DrawnBar {
  series: string;
  category: string;
  x: number;
  y: number;
}

interface SiteMapSite {
  id: string;
  name: string;
  technologies: string[];
  trackerId: number | null;
}

test.beforeEach(async ({ page }) => {
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort());
  await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
});

const chart = (page: Page, id: string) => page.locator(`canvas[data-chart="${id}"]`);
const card = (page: Page, title: string) => page.locator('.ant-card').filter({ has: page.locator('.ant-card-head-title', { hasText: title }) });
const pageTotal = (page: Page) => page.locator('.cw-pagination-total');

/** The bars a chart drew (its `data-bars` hook: a canvas has no DOM to find a bar by). */
async function barsOf(canvas: Locator): Promise<DrawnBar[]> {
  await expect(canvas).toHaveAttribute('data-bars', /series/);
  return JSON.parse((await canvas.getAttribute('data-bars'))!) as DrawnBar[];
}

/** The number a chart's table view shows for one bar. */
async function countInTable(page: Page, title: string, category: string, column: number): Promise<number> {
  const box = card(page, title);
  await box.getByText('Table', { exact: true }).click();
  const cell = box
    .locator('tbody tr')
    .filter({ has: page.locator('th', { hasText: new RegExp(`^${category}$`) }) })
    .locator('td')
    .nth(column);
  const count = Number((await cell.innerText()).replace(/,/g, ''));
  await box.getByText('Chart', { exact: true }).click();
  return count;
}

/** The texts of one column of a table's rows on the current page. */
async function columnTexts(table: Locator, header: string): Promise<string[]> {
  const rows = table.locator('.ant-table-tbody tr.ant-table-row');
  await expect(rows.first()).toBeVisible();
  const headers = (await table.locator('.ant-table-thead th').allInnerTexts()).map((t) => t.trim());
  const index = headers.indexOf(header);
  expect(index, `column ${header} in ${headers.join(', ')}`).toBeGreaterThanOrEqual(0);
  const out: string[] = [];
  for (let i = 0; i < (await rows.count()); i++) out.push((await rows.nth(i).locator('td').nth(index).innerText()).trim());
  return out;
}

test('native charts draw the demo data; a click on a tracker status bar opens the tracker with only that status', async ({ page }) => {
  await page.goto(`${app.url}/dashboards/dashboardRollout`);
  await expect(page.getByRole('heading', { name: 'Dashboard Rollout' })).toBeVisible();
  for (const id of ['commissioned', 'trackerStatus', 'workOrders', 'alarms']) await expect(chart(page, id)).toBeVisible();
  const status = chart(page, 'trackerStatus');
  const open = (await barsOf(status)).find((b) => b.category === 'Open');
  expect(open, 'the demo tracker has sites in status Open').toBeDefined();
  const expected = await countInTable(page, 'Tracker status', 'Open', 0);
  expect(expected).toBeGreaterThan(0);

  await status.click({ position: { x: open!.x, y: open!.y } });
  await expect(page).toHaveURL(/\/tracking\/tracker\?filters=/);
  expect(new URL(page.url()).searchParams.get('filters')).toBe('{"currentStatus":"Open"}');
  await expect(pageTotal(page)).toHaveText(`1-${Math.min(expected, 10)} of ${expected}`);
  const statuses = await columnTexts(page.locator('.ant-table-wrapper').first(), 'Current Status');
  expect(statuses.length).toBe(Math.min(expected, 10));
  expect(new Set(statuses)).toEqual(new Set(['Open']));
});

test('a click on a Critical alarm bar opens Fault Management with only Critical alarms; the table view reaches it from the keyboard', async ({ page }) => {
  await page.goto(`${app.url}/dashboards/dashboardRollout`);
  const alarms = chart(page, 'alarms');
  const critical = (await barsOf(alarms)).filter((b) => b.series === 'Critical');
  expect(critical.length, 'the demo logs raise Critical alarms').toBeGreaterThan(0);
  await alarms.click({ position: { x: critical[0]!.x, y: critical[0]!.y } });
  await expect(page).toHaveURL(/\/monitoring\/faultManagement\?filters=/);
  const list = page.locator('.ant-table-wrapper').filter({ has: page.locator('.ant-table-title', { hasText: 'Alarm List' }) });
  expect(new Set(await columnTexts(list, 'Severity'))).toEqual(new Set(['Critical']));

  // Without a mouse: the table view's numbers are links to the same tables.
  await page.goto(`${app.url}/dashboards/dashboardRollout`);
  const box = card(page, 'Tracker status');
  await box.getByText('Table', { exact: true }).click();
  const link = box.getByRole('link', { name: /^Sites, In progress: \d+ sites\. Open the filtered table$/ });
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/tracking\/tracker\?filters=/);
  expect(new Set(await columnTexts(page.locator('.ant-table-wrapper').first(), 'Current Status'))).toEqual(new Set(['In progress']));
});

test('the site map draws every demo site with coordinates without tiles; the site select opens a popup whose link opens that site report, which shows the map', async ({
  page,
}) => {
  const answer = page.waitForResponse((r) => r.url().includes('/api/Monitoring/GetSiteMap') && r.ok());
  await page.goto(`${app.url}/dashboards/dashboardRollout`);
  await page.getByRole('tab', { name: 'Site map' }).click();
  const sites = ((await (await answer).json()) as { sites: SiteMapSite[] }).sites;
  expect(sites.length).toBeGreaterThan(100);
  const map = page.locator('.leaflet-container');
  await expect(map).toHaveAttribute('data-drawn-sites', String(sites.length));
  await expect(page.locator('.leaflet-control-layers-overlays label')).toHaveText(['2G', '3G', '4G', '5G']);
  await expect(page.locator('.cellwise-map-legend')).toHaveText('Overall site statusOKNOKNo data');

  // Only the 5G layer left: the 5G sites stay drawn, once each; all layers back: every site.
  const layer = (name: string) => page.locator('.leaflet-control-layers-overlays label', { hasText: name }).locator('input');
  for (const name of ['2G', '3G', '4G']) await layer(name).uncheck();
  await expect(map).toHaveAttribute('data-drawn-sites', String(sites.filter((s) => s.technologies.includes('5G')).length));
  await layer('5G').uncheck();
  await expect(map).toHaveAttribute('data-drawn-sites', '0');
  for (const name of ['2G', '3G', '4G', '5G']) await layer(name).check();
  await expect(map).toHaveAttribute('data-drawn-sites', String(sites.length));

  const site = sites.find((s) => s.trackerId !== null) ?? sites[0]!;
  const select = page.getByLabel('Find a site on the map');
  await select.click();
  await select.fill(site.id);
  await page.locator('.ant-select-item-option', { hasText: site.id }).first().click();
  const popup = page.locator('.leaflet-popup-content');
  await expect(popup).toContainText(`${site.id} – ${site.name}`);
  await expect(popup).toContainText('Overall status');
  if (site.trackerId !== null) await expect(popup.getByRole('link', { name: `Tracker row of ${site.id}` })).toBeVisible();

  await popup.getByRole('link', { name: `Site report of ${site.id}` }).click();
  await expect(page).toHaveURL(new RegExp(`/monitoring/siteReport\\?siteId=${site.id}$`));
  await expect(page.getByRole('heading', { name: 'Site Report' })).toBeVisible();
  const mapCard = card(page, 'Map');
  await expect(mapCard.locator('.leaflet-container')).toHaveAttribute('data-drawn-sites', String(sites.length));
  await expect(mapCard.locator('.leaflet-popup-content')).toContainText(`${site.id} – ${site.name}`);
});
