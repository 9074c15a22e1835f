import { expect, test } from '@playwright/test';
import { consoleForThisFile } from '../support/console';
import { ADMIN, signInByToken } from '../support/session';

// Shareable views (issue 47): a table's filters, sort and page are in the address; 'Copy link' copies it
// and the link opens the same filtered page in a second browser.
const app = consoleForThisFile();

test('a copied link opens the same filtered, sorted page in another browser', async ({ browser }) => {
  const first = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await first.newPage();
  await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
  await page.goto(`${app.url}/monitoring/faultManagement`);
  const alarms = page.locator('.cw-data-table').filter({ hasText: 'Alarm List' });
  await expect(alarms.locator('tr.ant-table-row').first()).toBeVisible();
  await page.getByRole('group', { name: 'Alarm counters' }).locator('[data-counter="Warning"]').click();
  await alarms.getByText('Node Name', { exact: true }).first().click();
  await expect(alarms.locator('th[aria-sort="ascending"]')).toContainText('Node Name');
  // The header marks the sort at once; the sorted page arrives after it (rows read before that were the unsorted page).
  // The Node Name column found by its header (the selection column comes first).
  const column = (await alarms.locator('thead tr').last().locator('th').allTextContents()).findIndex((title) => title.includes('Node Name')) + 1;
  expect(column).toBeGreaterThan(0);
  const nodeNames = () => alarms.locator(`tr.ant-table-row td:nth-child(${column})`).allTextContents();
  await expect
    .poll(async () => {
      const names = await nodeNames();
      return names.length > 0 && names.every((name, i) => i === 0 || names[i - 1]!.localeCompare(name) <= 0);
    })
    .toBe(true);
  const shown = await alarms.locator('tr.ant-table-row').allTextContents();
  expect(shown.length).toBeGreaterThan(0);
  for (const row of shown) expect(row).toContain('Warning');

  await alarms.getByRole('button', { name: 'Copy a link to Alarm List' }).click();
  await expect(page.getByText('Link copied: it opens this table as you see it.')).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(new URL(link).searchParams.get('view.monitoring.faultManagement.alarms')).toContain('"severity":"Warning"');

  const second = await browser.newContext();
  const other = await second.newPage();
  await signInByToken(other, app.url, ADMIN.email, ADMIN.password);
  await other.goto(link);
  const theirs = other.locator('.cw-data-table').filter({ hasText: 'Alarm List' });
  await expect(theirs.locator('th[aria-sort="ascending"]')).toContainText('Node Name');
  await expect.poll(() => theirs.locator('tr.ant-table-row').allTextContents()).toEqual(shown);
  await first.close();
  await second.close();
});
