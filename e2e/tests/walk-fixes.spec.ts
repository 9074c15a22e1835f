import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { consoleForThisFile } from '../support/console';
import { button, tableOf } from '../support/locators';
import { ADMIN, DEMO_PASSWORD, DEMO_USERS, signInByToken } from '../support/session';

/**
 * Issue 47, "Fix (each seen in the walk)": one test per rough edge a user meets, at the width the walk
 * met it. Each failed on the build before the fix.
 */

const app = consoleForThisFile();
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-walk-fixes-'));
test.afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const found = await locator.boundingBox();
  if (!found) throw new Error('element has no box (not rendered)');
  return found;
}

async function signedIn(page: Page, viewport: { width: number; height: number }, route: string): Promise<void> {
  await page.setViewportSize(viewport);
  await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
  await page.goto(app.url + route);
}

/** The height of each body row of a table, in pixels. */
async function rowHeights(table: Locator): Promise<number[]> {
  return table.locator('.ant-table-tbody tr.ant-table-row').evaluateAll((rows) => rows.map((r) => Math.round(r.getBoundingClientRect().height)));
}

test('4: long comments stay on one line, so a page shows its 10 rows; the whole text shows on keyboard focus', async ({ page }) => {
  await signedIn(page, DESKTOP, '/monitoring/faultManagement');
  const table = tableOf(page, 'Fault Summary');
  const cells = table.locator('td .cw-long-text');
  await expect(cells.first()).toBeVisible();
  const heights = await rowHeights(table);
  expect(heights.length).toBeGreaterThan(1);
  // One line of text: every row as high as the shortest.
  expect(Math.max(...heights)).toBeLessThanOrEqual(Math.min(...heights) + 1);
  // The comment the walk found cut: longer than its cell shows, whole in the tooltip its focus opens.
  let cut: Locator | null = null;
  for (let i = 0; i < (await cells.count()) && !cut; i++) {
    const cell = cells.nth(i);
    if (await cell.evaluate((el) => el.scrollWidth > el.clientWidth + 1)) cut = cell;
  }
  expect(cut, 'a comment longer than its cell').not.toBeNull();
  const text = (await cut!.textContent())!.trim();
  await cut!.focus();
  await expect(page.getByRole('tooltip')).toHaveText(text);
});

test('5: a first-column filter opens beside the side menu, not over its active entry', async ({ page }) => {
  await signedIn(page, DESKTOP, '/tracking/tracker');
  const sider = page.locator('.ant-layout-sider');
  await expect(sider).toBeVisible();
  await page.getByRole('button', { name: 'Filter Local Id' }).click();
  const panel = page.getByRole('textbox', { name: 'Filter Local Id' });
  await expect(panel).toBeVisible();
  const dropdown = page.locator('.ant-table-filter-dropdown:visible');
  const siderBox = await box(sider);
  expect((await box(dropdown)).x).toBeGreaterThanOrEqual(siderBox.x + siderBox.width);
});

test('7: the import dialog has one Remove for its one file and keeps its width when the problems arrive', async ({ page }) => {
  await signedIn(page, DESKTOP, '/tracking/tracker');
  await button(page, 'Import').click();
  const dialog = page.getByRole('dialog', { name: 'Import Tracker' });
  await expect(dialog).toBeVisible();
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('Tracker').addRow(['not', 'the', 'header']);
  const file = path.join(workDir, 'wrong-header.xlsx');
  await workbook.xlsx.writeFile(file);
  await dialog.locator('input[type="file"]').setInputFiles(file);
  await expect(dialog.getByText('wrong-header.xlsx')).toBeVisible();
  await expect(dialog.getByRole('button', { name: /Remove/ })).toHaveCount(1);
  const before = await box(page.locator('.ant-modal-container, .ant-modal-content').first());
  await button(dialog, 'Upload').click();
  await expect(dialog.getByTestId('import-problems')).toBeVisible();
  const after = await box(page.locator('.ant-modal-container, .ant-modal-content').first());
  expect(Math.round(after.width)).toBe(Math.round(before.width));
});

test('10: an export is headed by the table’s column titles, frozen, with filter buttons and columns sized to content', async ({ page }) => {
  await signedIn(page, DESKTOP, '/tracking/commissioningplan');
  const table = page.locator('.ant-table-wrapper').first();
  await expect(table.locator('.ant-table-tbody tr.ant-table-row').first()).toBeVisible();
  const titles = (await table
    .locator('.ant-table-thead th[aria-label], .ant-table-thead th[title]')
    .evaluateAll((cells) => cells.map((c) => c.getAttribute('aria-label') ?? c.getAttribute('title') ?? ''))) as string[];
  expect(titles).toContain('Local Id');
  const [download] = await Promise.all([page.waitForEvent('download'), button(page, 'Export').click()]);
  const file = path.join(workDir, download.suggestedFilename());
  await download.saveAs(file);
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  const sheet = book.worksheets[0]!;
  const headers = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  // Every column the page shows is in the file under the same title (the file adds the row id).
  expect(headers.filter((h) => h !== 'Id')).toEqual(titles);
  expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  expect(sheet.autoFilter).toBe(`A1:${sheet.getColumn(headers.length).letter}1`);
  const widthOf = (title: string) => sheet.getColumn(headers.indexOf(title) + 1).width ?? 0;
  const longest = (title: string) =>
    Math.max(...(sheet.getColumn(headers.indexOf(title) + 1).values as unknown[]).slice(1).map((v) => (v instanceof Date ? 19 : String(v ?? '').length)));
  for (const title of ['Local Id', 'Equip Name', 'Comments']) expect(widthOf(title)).toBeGreaterThanOrEqual(Math.min(60, longest(title)));
});

test('11: at 390 px the pager keeps next on the line of the pages', async ({ page }) => {
  await signedIn(page, PHONE, '/tracking/commissioningplan');
  const pager = page.getByRole('navigation', { name: 'Pagination' });
  await expect(pager.getByRole('button', { name: 'Page 1' })).toBeVisible();
  const next = await box(pager.getByRole('button', { name: 'next' }));
  const previous = await box(pager.getByRole('button', { name: 'previous' }));
  expect(Math.abs(next.y - previous.y)).toBeLessThan(2);
  expect(next.x + next.width).toBeLessThanOrEqual(PHONE.width);
  // Still several pages to go to, not only previous and next.
  expect(await pager.getByRole('button', { name: /^Page \d+$/ }).count()).toBeGreaterThanOrEqual(3);
});

test('1: an Administrator reactivates a deactivated user, who can then sign in again', async ({ page }) => {
  await signedIn(page, DESKTOP, '/management/users');
  const row = page.locator('.ant-table-row', { hasText: DEMO_USERS.CellwiseOS });
  await button(row, 'Deactivate').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
  await expect(row.getByText('Deactivated', { exact: true })).toBeVisible();
  expect((await page.request.post(`${app.url}/api/auth/login`, { data: { email: DEMO_USERS.CellwiseOS, password: DEMO_PASSWORD } })).status()).toBe(403);
  await button(row, 'Reactivate').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Reactivate' }).click();
  await expect(page.locator('.ant-notification-notice').getByText('User reactivated.')).toBeVisible();
  await expect(row.getByText('Deactivated', { exact: true })).toHaveCount(0);
  await expect(button(row, 'Deactivate')).toBeVisible();
  expect((await page.request.post(`${app.url}/api/auth/login`, { data: { email: DEMO_USERS.CellwiseOS, password: DEMO_PASSWORD } })).status()).toBe(200);
});

// Known open defect (issue 47 item 2, in the session note): a notification poll in flight while the password
// changes still carries the old token and is answered 401, in about one run of two on two cores.
test('2: change password: the 10-character minimum in the form, a refusal leaves no uncaught error, a success one toast and no 401', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /ApiError|Uncaught/.test(message.text())) problems.push(`console: ${message.text()}`);
  });
  const refused: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 401 && response.url().includes('/api/')) refused.push(response.url());
  });
  await page.setViewportSize(DESKTOP);
  await signInByToken(page, app.url, DEMO_USERS.Client, DEMO_PASSWORD);
  await page.goto(app.url + '/management/settings/security');
  const save = page.getByRole('button', { name: 'Save changes' });
  await page.getByLabel('Old password').fill(DEMO_PASSWORD);
  await page.getByLabel('New password', { exact: true }).fill('Short-1');
  await page.getByLabel('Confirm new password').fill('Short-1');
  await page.getByLabel('Old password').focus();
  await expect(page.getByText('must be at least 10 characters')).toBeVisible();
  await expect(save).toBeDisabled();

  // Refused by the server (the old password is wrong): its message, and nothing uncaught.
  await page.getByLabel('Old password').fill('not-the-old-password');
  await page.getByLabel('New password', { exact: true }).fill('Walk-Fixes-Secret-47');
  await page.getByLabel('Confirm new password').fill('Walk-Fixes-Secret-47');
  await save.click();
  await expect(page.locator('.ant-notification-notice-error, .ant-notification-notice').first()).toBeVisible();
  await page.waitForTimeout(500);
  expect(problems).toEqual([]);
  await page.locator('.ant-notification-notice-close').first().click();
  await expect(page.locator('.ant-notification-notice')).toHaveCount(0);

  await page.getByLabel('Old password').fill(DEMO_PASSWORD);
  await save.click();
  await expect(page.locator('.ant-notification-notice').getByText('Password changed!')).toBeVisible();
  // The hub's notification arrives in the bell, not as a second toast.
  await expect(page.getByRole('button', { name: /Notifications \(1 unread\)/ })).toBeVisible();
  await page.waitForTimeout(1500);
  await expect(page.locator('.ant-notification-notice')).toHaveCount(1);
  expect(refused).toEqual([]);
  expect(problems).toEqual([]);
});

test('6: at 1440 the users table keeps each row’s actions on one line', async ({ page }) => {
  await signedIn(page, DESKTOP, '/management/users');
  const table = tableOf(page, 'All Users');
  await expect(table.locator('.ant-table-row').first()).toBeVisible();
  const lines = await table.locator('.ant-table-row').evaluateAll((rows) =>
    rows.map((row) => {
      const tops = Array.from(row.querySelectorAll('td:last-child button')).map((b) => Math.round(b.getBoundingClientRect().top));
      return { buttons: tops.length, lines: new Set(tops).size };
    }),
  );
  expect(lines.some((l) => l.buttons === 3)).toBe(true);
  for (const line of lines) expect(line.lines).toBeLessThanOrEqual(1);
});

test('11: deleting an operator counts its users and projects in words that agree with the numbers', async ({ page }) => {
  await signedIn(page, DESKTOP, '/management/operators');
  const texts: string[] = [];
  for (const name of ['MEO', 'NOS', 'Vodafone PT']) {
    await page
      .getByRole('region', { name })
      .getByRole('button', { name: /Delete/ })
      .click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    texts.push((await dialog.innerText()).replace(/\s+/g, ' '));
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  }
  const counted = texts.flatMap((t) => [...t.matchAll(/\b(\d+) (users?|projects?)\b/g)]);
  expect(counted.length).toBeGreaterThan(0);
  expect(counted.some((m) => m[1] === '1')).toBe(true);
  for (const [, count, noun] of counted) expect(noun!.endsWith('s')).toBe(count !== '1');
});
