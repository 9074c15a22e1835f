import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { consoleForThisFile } from '../support/console';
import { button, tableOf } from '../support/locators';
import { pickOption } from '../support/select';
import { ADMIN, signInByToken } from '../support/session';

/*
 * Issue 46 in the browser: two neighbouring demo sites planned in one run — LX0002 (no NR yet) and LX0006
 * (0.7 km away, n78 cells already, kept) — the result lists the kept cells and the Problems sheet, and
 * 'Discard plan' frees the plan, the result and the history then saying 'Discarded'.
 */

const SITES = ['LX0002', 'LX0006'];

test.use({ timezoneId: 'UTC' });
test.describe.configure({ mode: 'serial' });

const app = consoleForThisFile();
test.beforeEach(async ({ page }) => {
  await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
});

async function shoot(page: Page, name: string): Promise<void> {
  const dir = test.info().outputPath('screens');
  fs.mkdirSync(dir, { recursive: true });
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 1000 });
    await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 1000 });
}

test('Parameter Planning of a cluster: two sites in one run, the kept cells and the Problems on screen, then Discard plan', async ({ page }) => {
  await page.goto(`${app.url}/planning/parameterplanning`);
  for (const site of SITES) await pickOption(page, 'Sites', site, new RegExp(`^${site} – `));
  // A multiple select stays open for the next pick.
  await page.keyboard.press('Escape');
  await expect(page.getByLabel('Replan existing NR cells')).not.toBeChecked();
  await button(page, 'Run Parameter Planning').click();

  const result = page.getByTestId('run-result');
  await expect(result).toContainText('Parameter planning of 2 sites (LX0002, LX0006)');
  await expect(result).toContainText('3 NR cells planned, 3 kept');
  const tag = (label: string) => result.locator('.ant-tag').filter({ hasText: new RegExp(`^${label}: \\d+$`) });
  await expect(tag('Sites')).toHaveText('Sites: 2');
  await expect(tag('NR cells kept')).toHaveText('NR cells kept: 3');
  await expect(tag('Errors')).toHaveText('Errors: 0');

  // The NR Cells sheet: LX0006's cells kept from the inventory, LX0002's planned.
  const nrCells = tableOf(page, 'NR Cells: 6 rows');
  await expect(nrCells.locator('tr.ant-table-row').filter({ hasText: 'Kept (inventory)' })).toHaveCount(3);
  await expect(nrCells.locator('tr.ant-table-row').filter({ hasText: 'Planned' })).toHaveCount(3);
  await shoot(page, 'cluster-nr-cells');

  // The Problems sheet: as many rows as the summary's warnings and errors.
  const warnings = Number((await tag('Warnings').textContent())!.split(': ')[1]);
  await result.getByRole('tab', { name: /^Problems \(\d+\)$/ }).click();
  await expect(result.getByRole('tab', { name: `Problems (${warnings})` })).toBeVisible();
  await shoot(page, 'cluster-problems');

  await page.getByTestId('discard-plan').click();
  await expect(page.getByText('Discard this plan?')).toBeVisible();
  await shoot(page, 'cluster-discard-confirm');
  await button(page.locator('.ant-popover'), 'Discard plan').click();
  await expect(page.getByText(/^Plan \d+ discarded: 3 reserved NR cells freed\.$/)).toBeVisible();
  await expect(tag('Discarded')).toHaveText('Discarded: 1');
  const history = tableOf(page, 'Parameter Planning History');
  await expect(history.locator('tr.ant-table-row').first()).toContainText('Discarded 1');
  await shoot(page, 'cluster-discarded');

  // Discarding again is refused, and said so.
  await page.getByTestId('discard-plan').click();
  await button(page.locator('.ant-popover'), 'Discard plan').click();
  await expect(page.getByText(/^This plan was already discarded/)).toBeVisible();
});
