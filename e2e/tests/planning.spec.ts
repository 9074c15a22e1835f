import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { consoleForThisFile } from '../support/console';
import { button, tableOf } from '../support/locators';
import { pickOption } from '../support/select';
import { ADMIN, signInByToken } from '../support/session';
import { wasShown, watchShown } from '../support/shown';

// The demo network: LX0006 has L800, L1800 and L2100 cells in three sectors, and n78 cells already (kept
// unless 'Replan existing NR cells' is ticked); the administrator's current operator is Vodafone PT, whose
// seeded frequency plan is the n78 block 3600–3700 MHz (NR-ARFCN 643334).
const SITE = 'LX0006';

let workDir: string;

test.use({ timezoneId: 'UTC', acceptDownloads: true });
test.describe.configure({ mode: 'serial' });

const app = consoleForThisFile();
test.beforeAll(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-planning-e2e-'));
});
test.afterAll(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});
test.beforeEach(async ({ page }) => {
  await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
});

/**
 * Types the site and picks it once the server's answer to the typed text is listed: the options of the
 * empty query show first and are replaced by that answer, and a click landing during the swap selected
 * nothing (a CI run waited a minute on a disabled Run button).
 */
async function pickSite(page: Page, site: string): Promise<void> {
  await pickOption(page, 'Sites', site, new RegExp(`^${site} – `));
}

async function download(page: Page, trigger: Locator): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), trigger.click()]);
  const target = path.join(workDir, `${Date.now()}-${file.suggestedFilename()}`);
  await file.saveAs(target);
  return target;
}

/** Each sheet as rows of header-keyed records. */
async function sheetsOf(file: string): Promise<Record<string, Array<Record<string, unknown>>>> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  return Object.fromEntries(
    book.worksheets.map((ws) => {
      const rows: unknown[][] = [];
      ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      const [header = [], ...data] = rows;
      return [ws.name, data.map((r) => Object.fromEntries(header.map((h, i) => [String(h), r[i] ?? null])))];
    }),
  );
}

/** The run's progress, recorded whenever it was on screen (it may come and go between two polls). */
const RUN_PROGRESS = '[data-testid="run-progress"]';
const watchProgress = (page: Page) => watchShown(page, RUN_PROGRESS);
const progressWasShown = (page: Page) => wasShown(page, RUN_PROGRESS);

test('Parameter Planning: a demo site planned with progress, the summary, the history row, and the workbook read back', async ({ page }) => {
  await page.goto(`${app.url}/planning/parameterplanning`);
  await expect(page.locator('.cw-callout-info')).toContainText(/^Last dump: \d\d-\d\d-\d{4} \d\d:\d\d:\d\d$/);
  await expect(button(page, 'Run Parameter Planning')).toBeDisabled();
  await expect(tableOf(page, 'Parameter Planning History')).toContainText('No runs yet.');

  await pickSite(page, SITE);
  await page.getByLabel('Replan existing NR cells').check();
  await watchProgress(page);
  await button(page, 'Run Parameter Planning').click();

  const result = page.getByTestId('run-result');
  await expect(result).toContainText(`Parameter planning of ${SITE} (AIR3227/78 on L800, L1800, L2100): 3 NR cells, 9 LTE anchors, 9 EN-DC relations`);
  for (const [label, count] of [
    ['NR cells', 3],
    ['LTE anchors', 9],
    ['EN-DC relations', 9],
    ['Missing bands', 0],
  ] as const) {
    await expect(result.locator('.ant-tag').filter({ hasText: new RegExp(`^${label}: ${count}$`) })).toHaveCount(1);
  }
  await expect(result).toContainText('NR Cells: 3 rows');
  expect(await progressWasShown(page)).toBe(true);
  const file = await download(page, button(result, 'Download workbook'));

  const history = tableOf(page, 'Parameter Planning History');
  const row = history.locator('tr.ant-table-row').first();
  await expect(row).toContainText(SITE);
  await expect(row).toContainText('AIR3227/78');
  await expect(row).toContainText('L800, L1800, L2100');
  await expect(row).toContainText('Cellwise Administrator');

  const sheets = await sheetsOf(file);
  expect(Object.keys(sheets)).toEqual(['NR Cells', 'LTE Anchors', 'EN-DC Relations', 'X2', 'Sites', 'Parameters', 'Problems']);
  const nr = sheets['NR Cells']!;
  expect(nr).toHaveLength(3);
  for (const cell of nr) {
    expect(cell['NR Cell']).toMatch(new RegExp(`^${SITE}_N78_[123]$`));
    const pci = cell['NR PCI'] as number;
    expect(Number.isInteger(pci) && pci >= 0 && pci <= 1007).toBe(true);
    expect(cell['N_ID1']).toBe(Math.floor(pci / 3));
    // Vodafone PT's carrier, on the n78 30 kHz channel raster (620000–653332, even).
    const arfcn = cell['NR-ARFCN'] as number;
    expect(arfcn).toBe(643334);
    expect(arfcn >= 620000 && arfcn <= 653332 && arfcn % 2 === 0).toBe(true);
    const gscn = cell['SSB GSCN'] as number;
    expect(gscn >= 7711 && gscn <= 8051).toBe(true);
    expect(cell['TxRx']).toBe('32T32R');
  }
  expect(new Set(nr.map((c) => (c['NR PCI'] as number) % 3)).size).toBe(3);
  expect(sheets['LTE Anchors']!.map((a) => a['Band'])).toEqual(expect.arrayContaining(['L800', 'L1800', 'L2100']));
  // LX0006 had NR: its gNB stays the node its NR cells are on.
  expect(sheets['X2']).toEqual([{ eNB: SITE, gNB: expect.any(String) }]);
  expect(nr.every((c) => c['Planned / Kept'] === 'Planned')).toBe(true);
  expect(sheets['Parameters']).toEqual(expect.arrayContaining([{ Parameter: 'Operator', Value: 'Vodafone PT' }]));

  // The same workbook again, later, from the history.
  const again = await sheetsOf(await download(page, history.getByRole('button', { name: /Download the workbook of run \d+/ }).first()));
  expect(again['NR Cells']).toEqual(nr);
});

test('Parameter Planning: a band the site lacks is refused inline when it is the only one, and nothing is recorded', async ({ page }) => {
  await page.goto(`${app.url}/planning/parameterplanning`);
  const history = tableOf(page, 'Parameter Planning History');
  await expect(history.locator('tr.ant-table-row')).toHaveCount(1);
  await pickSite(page, SITE);
  // Only L700, which LX0006 does not have.
  const bands = page.getByRole('combobox', { name: 'LTE Bands' });
  await bands.click();
  for (const band of ['L800', 'L1800', 'L2100'])
    await page
      .locator('.ant-select-item-option')
      .filter({ hasText: new RegExp(`^${band}$`) })
      .click();
  await page
    .locator('.ant-select-item-option')
    .filter({ hasText: /^L700$/ })
    .click();
  await page.keyboard.press('Escape');
  await button(page, 'Run Parameter Planning').click();
  await expect(page.getByTestId('planning-refusal')).toContainText(`Site ${SITE} has no LTE cell on L700: there is nothing to anchor the NR cells on.`);
  await expect(history.locator('tr.ant-table-row')).toHaveCount(1);
});

test('Frequency plans: every demo operator has one, and an Administrator can edit it', async ({ page }) => {
  await page.goto(`${app.url}/planning/parameterplanning`);
  await button(page, 'Frequency plans').click();
  const plans = tableOf(page, "Operators' frequency plans");
  await expect(plans.locator('tr.ant-table-row')).toHaveCount(3);
  await expect(plans.locator('tr.ant-table-row').filter({ hasText: 'Vodafone PT' })).toContainText('3600.01–3700.01 MHz');
  await page.getByRole('button', { name: 'Edit the plan of NOS' }).click();
  const dialog = page.locator('.ant-modal').filter({ hasText: 'Frequency plan of NOS' });
  await dialog.getByLabel('L700 EARFCN').fill('9320');
  await button(dialog, 'Save').click();
  await expect(page.getByText('Frequency plan of NOS saved.')).toBeVisible();
  await expect(plans.locator('tr.ant-table-row').filter({ hasText: 'NOS' })).toContainText('9320');
});
