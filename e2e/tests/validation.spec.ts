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

// The demo network (LX0001…): CPICH validation of UTRAN sites, and planned neighbour relations of LX0001
// (one relation between its own L800 sectors, one to a cell the dump does not have) against the dump.

let workDir: string;

test.use({ timezoneId: 'UTC', acceptDownloads: true });
test.describe.configure({ mode: 'serial' });

const app = consoleForThisFile();
test.beforeAll(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-validation-e2e-'));
});
test.afterAll(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});
test.beforeEach(async ({ page }) => {
  await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
});

async function download(page: Page, trigger: Locator): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), trigger.click()]);
  const target = path.join(workDir, file.suggestedFilename());
  await file.saveAs(target);
  return target;
}

async function sheetsOf(file: string): Promise<Record<string, unknown[][]>> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  return Object.fromEntries(
    book.worksheets.map((ws) => {
      const rows: unknown[][] = [];
      ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      return [ws.name, rows];
    }),
  );
}

/** The run's progress, recorded whenever it was on screen (it may come and go between two polls). */
const RUN_PROGRESS = '[data-testid="run-progress"]';
const watchProgress = (page: Page) => watchShown(page, RUN_PROGRESS);
const progressWasShown = (page: Page) => wasShown(page, RUN_PROGRESS);

async function pickSite(page: Page, label: 'Site' | 'Sites', typed: string, option: RegExp): Promise<string> {
  return (await pickOption(page, label, typed, option)).split(' ')[0]!;
}

test('Cpich Validation: run on a UTRAN site with progress, the verdicts, the history row, and the workbook read back', async ({ page }) => {
  await page.goto(`${app.url}/validation/cpichvalidation`);
  await expect(page.locator('.cw-callout-info')).toContainText(/^UTRAN cells date: \d\d-\d\d-\d{4} \d\d:\d\d:\d\d$/);
  await expect(button(page, 'Run Validation')).toBeDisabled();
  const site = await pickSite(page, 'Sites', 'LX', /^LX\d{4} – /);
  await page.keyboard.press('Escape');
  await watchProgress(page);
  await button(page, 'Run Validation').click();

  const result = page.getByTestId('run-result');
  await expect(result).toContainText(new RegExp(`Cpich validation of ${site}: .+\\.`));
  for (const verdict of ['OK', 'WARNING', 'ERROR'])
    await expect(result.locator('.ant-tag').filter({ hasText: new RegExp(`^${verdict}: \\d+$`) })).toHaveCount(1);
  await expect(result).toContainText('Cpich Validation:');
  expect(await progressWasShown(page)).toBe(true);

  const history = tableOf(page, 'Cpich Validation History');
  await expect(history.locator('tr.ant-table-row').first()).toContainText(site);
  await expect(history.locator('tr.ant-table-row').first()).toContainText(/OK \d+, WARNING \d+, ERROR \d+/);

  const sheets = await sheetsOf(await download(page, button(result, 'Download workbook')));
  expect(Object.keys(sheets)).toEqual(['Cpich Validation']);
  const [header, ...rows] = sheets['Cpich Validation']!;
  expect(header).toEqual(expect.arrayContaining(['Site', 'Node', 'Cell', 'Verdict', 'Reason']));
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.every((r) => r[0] === site && ['OK', 'WARNING', 'ERROR'].includes(String(r[7])))).toBe(true);

  // The same workbook again, later, from the history.
  const again = await sheetsOf(await download(page, history.getByRole('button', { name: /Download the workbook of run \d+/ }).first()));
  expect(again['Cpich Validation']).toEqual(sheets['Cpich Validation']);
});

test('Nbr Relations Validation: template, upload with progress, verdicts, history row, and the workbook read back; a headerless workbook is refused', async ({
  page,
}) => {
  await page.goto(`${app.url}/validation/nbrRelationsValidation`);
  await expect(page.locator('.cw-callout-info')).toContainText(/^Neighbour relations date: \d\d-\d\d-\d{4} \d\d:\d\d:\d\d$/);

  const template = await sheetsOf(await download(page, button(page, 'Download template')));
  expect(Object.keys(template)).toEqual(['Planned Relations', 'Read me']);
  const headers = template['Planned Relations']![0] as string[];
  expect(headers.slice(0, 2)).toEqual(['Source Cell', 'Target Cell']);

  // The template filled in: LX0001's first L800 sector to its second (the demo plans its own sectors), and a cell the dump lacks.
  const planned = new ExcelJS.Workbook();
  const sheet = planned.addWorksheet('Planned Relations');
  sheet.addRow(headers);
  sheet.addRow(['LX0001_L800_1', 'LX0001_L800_2']);
  sheet.addRow(['LX0001_L800_1', 'LX0001_NOPE_9']);
  const plannedFile = path.join(workDir, 'planned.xlsx');
  await planned.xlsx.writeFile(plannedFile);
  const headerless = new ExcelJS.Workbook();
  headerless.addWorksheet('Sheet1').addRow(['From', 'To']);
  const headerlessFile = path.join(workDir, 'headerless.xlsx');
  await headerless.xlsx.writeFile(headerlessFile);

  await pickSite(page, 'Site', 'LX0001', /^LX0001 – /);

  // Refused: the file and the missing columns are named, and nothing is recorded.
  await page.locator('input[type="file"]').setInputFiles(headerlessFile);
  await button(page, 'Upload and validate').click();
  await expect(page.getByTestId('run-refusal')).toContainText('headerless.xlsx has no Source Cell, Target Cell columns');
  await expect(tableOf(page, 'Nbr Relations Validation History')).toContainText('No runs yet.');
  await page.getByRole('button', { name: /Remove headerless\.xlsx/ }).click();

  await watchProgress(page);
  await page.locator('input[type="file"]').setInputFiles(plannedFile);
  await button(page, 'Upload and validate').click();
  const result = page.getByTestId('run-result');
  await expect(result).toContainText(/Neighbour relations of LX0001: .+\./);
  await expect(result.locator('.ant-tag').filter({ hasText: /^MISSING: [1-9]\d*$/ })).toHaveCount(1);
  await expect(result.locator('.ant-tag').filter({ hasText: /^OK: \d+$/ })).toHaveCount(1);
  await expect(result.locator('tr.ant-table-row').filter({ hasText: 'LX0001_NOPE_9' })).toContainText('MISSING');
  expect(await progressWasShown(page)).toBe(true);

  const history = tableOf(page, 'Nbr Relations Validation History');
  await expect(history.locator('tr.ant-table-row').first()).toContainText('LX0001');
  await expect(history.locator('tr.ant-table-row').first()).toContainText('planned.xlsx');

  const sheets = await sheetsOf(await download(page, button(result, 'Download workbook')));
  expect(Object.keys(sheets)).toContain('Relations');
  const relations = sheets['Relations']!;
  expect(relations[0]!.slice(0, 3)).toEqual(['Source Cell', 'Target Cell', 'Verdict']);
  expect(relations).toContainEqual(expect.arrayContaining(['LX0001_L800_1', 'LX0001_NOPE_9', 'MISSING']));
  expect(relations.slice(1).every((r) => ['OK', 'MISSING', 'EXTRA', 'WRONG'].includes(String(r[2])))).toBe(true);
});
