import { expect, test, type Browser, type Page } from '@playwright/test';
import { consoleForThisFile } from '../support/console';
import { acceptCookies, DEMO_PASSWORD, DEMO_USERS, signInByToken } from '../support/session';

const app = consoleForThisFile();

/** A second browser: its own context, so nothing of the first (local storage, cookies) is shared. */
async function browserFor(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await acceptCookies(context, app.url);
  const page = await context.newPage();
  await signInByToken(page, app.url, email, DEMO_PASSWORD);
  return page;
}

/** The tracker table's column titles, in order, as its header shows them. */
async function headerTitles(page: Page): Promise<string[]> {
  return (await page.locator('.ant-table-header th').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
}

const headerCell = (page: Page, title: string) => page.locator('.ant-table-header th').filter({ hasText: new RegExp(`^\\s*${title}\\s*$`) });

async function widthOf(page: Page, title: string): Promise<number> {
  return Math.round((await headerCell(page, title).boundingBox())!.width);
}

async function openTracker(page: Page): Promise<void> {
  await page.goto(app.url + '/tracking/tracker');
  await expect(page.locator('.cw-pagination-total')).toHaveText(/^1-10 of \d+/);
}

const settingsSaved = (page: Page, call: string) =>
  page.waitForResponse((r) => r.url().includes(`/api/TableSettings/${call}`) && r.request().method() !== 'GET' && r.status() === 200);

/** Rows are shown, and each one's first cell (Equip Name, once moved first) holds 'Alvalade'. */
async function onlyAlvalade(page: Page): Promise<boolean> {
  const names = await page.locator('.ant-table-tbody tr.ant-table-row td:first-child').allInnerTexts();
  return names.length > 0 && names.every((name) => name.includes('Alvalade'));
}

test('column settings and saved filters follow the user to another browser, and stay theirs', async ({ browser }) => {
  test.setTimeout(120_000);
  const first = await browserFor(browser, DEMO_USERS.CellwiseHQ);
  await openTracker(first);
  const defaults = await headerTitles(first);
  expect(defaults.slice(0, 4)).toEqual(['Local Id', 'Equip Name', 'Supplier', 'Comm Date']);

  // Hide Supplier, put Equip Name first, give Local Id 200 px: the changes go to the server once they stop.
  await first.getByRole('button', { name: 'Columns of the table' }).click();
  const columns = first.getByRole('list', { name: 'Columns' });
  await columns.getByRole('checkbox', { name: 'Supplier' }).uncheck();
  await columns.getByRole('button', { name: 'Move Equip Name up' }).click();
  let saved = settingsSaved(first, 'SaveColumns');
  await columns.getByRole('spinbutton', { name: 'Width of Local Id' }).fill('200');
  await saved;
  await first.keyboard.press('Escape');
  expect((await headerTitles(first)).slice(0, 3)).toEqual(['Equip Name', 'Local Id', 'Comm Date']);
  expect(await widthOf(first, 'Local Id')).toBe(200);

  // Project made wider by dragging its header's edge; the drag does not sort the column.
  const before = await widthOf(first, 'Project');
  const handle = headerCell(first, 'Project').getByRole('separator', { name: 'Resize Project' });
  const box = (await handle.boundingBox())!;
  saved = settingsSaved(first, 'SaveColumns');
  await first.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await first.mouse.down();
  await first.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2, { steps: 5 });
  await first.mouse.move(box.x + box.width / 2 + 90, box.y + box.height / 2, { steps: 5 });
  await first.mouse.up();
  await saved;
  const projectWidth = await widthOf(first, 'Project');
  expect(projectWidth).toBeGreaterThanOrEqual(before + 80);
  await expect(headerCell(first, 'Project')).not.toHaveAttribute('aria-sort', /ascending|descending/);

  // A filter typed in, saved under a name.
  await headerCell(first, 'Equip Name').getByLabel('Filter Equip Name').click();
  await first.getByRole('textbox', { name: 'Filter Equip Name' }).fill('Alvalade');
  await first.getByRole('textbox', { name: 'Filter Equip Name' }).press('Enter');
  // The filtered page, not the one before it (whose range text has the same shape): every row shown matches.
  await expect.poll(() => onlyAlvalade(first)).toBe(true);
  const filteredText = await first.locator('.cw-pagination-total').innerText();
  await first.getByRole('button', { name: 'Saved filters of the table' }).click();
  await first.getByRole('textbox', { name: 'Name of the filter' }).fill('Alvalade sites');
  saved = settingsSaved(first, 'SaveFilter');
  await first.getByRole('button', { name: 'Save', exact: true }).click();
  await saved;
  await expect(first.getByRole('button', { name: 'Apply saved filter Alvalade sites' })).toBeVisible();
  await first.screenshot({ path: test.info().outputPath('first-browser.png') });

  // The same user in another browser: the same columns, widths and saved filter.
  const second = await browserFor(browser, DEMO_USERS.CellwiseHQ);
  await openTracker(second);
  await expect.poll(async () => (await headerTitles(second)).slice(0, 3)).toEqual(['Equip Name', 'Local Id', 'Comm Date']);
  expect(await headerTitles(second)).not.toContain('Supplier');
  expect(await widthOf(second, 'Local Id')).toBe(200);
  expect(await widthOf(second, 'Project')).toBe(projectWidth);
  await second.getByRole('button', { name: 'Saved filters of the table' }).click();
  await second.getByRole('button', { name: 'Apply saved filter Alvalade sites' }).click();
  await expect.poll(() => onlyAlvalade(second)).toBe(true);
  await expect(second.locator('.cw-pagination-total')).toHaveText(filteredText);
  await second.screenshot({ path: test.info().outputPath('second-browser.png') });

  // Another user keeps the tracker as the page made it, and sees no saved filter.
  const other = await browserFor(browser, DEMO_USERS.CellwiseOS);
  await openTracker(other);
  expect(await headerTitles(other)).toEqual(defaults);
  await other.getByRole('button', { name: 'Saved filters of the table' }).click();
  await expect(other.getByText('No saved filters yet. Filter the table, then save its filters under a name.')).toBeVisible();

  // Deleted in the second browser, gone in the first after a reload.
  await second.getByRole('button', { name: 'Saved filters of the table' }).click();
  saved = settingsSaved(second, 'DeleteFilter');
  await second.getByRole('button', { name: 'Delete saved filter Alvalade sites' }).click();
  await saved;
  await openTracker(first);
  await first.getByRole('button', { name: 'Saved filters of the table' }).click();
  await expect(first.getByText('No saved filters yet. Filter the table, then save its filters under a name.')).toBeVisible();

  // Reset: the page's own columns again, everywhere.
  await first.keyboard.press('Escape');
  await first.getByRole('button', { name: 'Columns of the table' }).click();
  saved = settingsSaved(first, 'SaveColumns');
  await first.getByRole('button', { name: 'Reset columns' }).click();
  await saved;
  await openTracker(second);
  await expect.poll(() => headerTitles(second)).toEqual(defaults);
});
