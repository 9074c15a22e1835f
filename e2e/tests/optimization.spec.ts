import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import Database from 'better-sqlite3';
import ExcelJS from 'exceljs';
import { consoleForThisFile } from '../support/console';
import { button, tableOf } from '../support/locators';
import { ADMIN, signInByToken } from '../support/session';
import { wasShown, watchShown } from '../support/shown';

/**
 * Neighbour relations optimisation end to end: the template is downloaded and filled with statistics of
 * relations of the demo network (read from the console's own database), uploaded and run; the page shows
 * the progress, the counts and the first rows, the workbook downloads and reads back, and the run is in
 * the history with its workbook.
 */

interface Relation {
  dn: string;
  target: string;
  removable: number;
  hoAllowed: number;
}

interface Plan {
  source: string;
  sourceSite: string;
  relations: Relation[];
  removed: Relation;
  blocked: Relation;
  added: string;
}

let workDir: string;

test.use({ timezoneId: 'UTC', acceptDownloads: true });
test.describe.configure({ mode: 'serial' });

const app = consoleForThisFile();
test.beforeAll(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-optimization-e2e-'));
});
test.afterAll(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});
test.beforeEach(async ({ page }) => {
  await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
});

async function download(page: Page, trigger: () => Promise<unknown>): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), trigger()]);
  const target = path.join(workDir, `${Date.now()}-${file.suggestedFilename()}`);
  await file.saveAs(target);
  return target;
}

async function readBook(file: string): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  return book;
}
const rowsOf = (sheet: ExcelJS.Worksheet) =>
  sheet
    .getSheetValues()
    .slice(2)
    .map((row) => (row as unknown[]).slice(1));

/**
 * A 4G cell of the demo network whose relations all reach cells of the dump, one of them removable and
 * another allowed to hand over; a 4G cell of another site that is not its neighbour. Waits for the demo
 * network's import (a job at first start).
 */
/** The first demo operator (Vodafone PT), the one the administrator works in. */
const OPERATOR = 1;

async function planFromDemoNetwork(): Promise<Plan> {
  const db = new Database(path.join(app.dataDir, 'cellwise.sqlite'), { readonly: true });
  db.pragma('busy_timeout = 5000');
  try {
    await expect
      .poll(() => (db.prepare(`select count(*) as n from network_relations where operator_id = ${OPERATOR} and kind = 'LTE-LTE'`).get() as { n: number }).n, {
        timeout: 60_000,
      })
      .toBeGreaterThan(0);
    const source = db
      .prepare(
        // The administrator's operator (the first, Vodafone PT): each operator's inventory is its own,
        // and its indexes lead with the operator (docs/tenancy.md).
        `select c.name, c.site_id as site, c.dn from network_cells c
         where c.operator_id = ${OPERATOR} and c.tech = '4G'
           and (select count(*) from network_relations r where r.operator_id = c.operator_id and r.source_cell_dn = c.dn) >= 3
           and not exists (select 1 from network_relations r where r.operator_id = c.operator_id and r.source_cell_dn = c.dn and r.target_cell_dn is null)
           and exists (select 1 from network_relations r where r.operator_id = c.operator_id and r.source_cell_dn = c.dn and r.is_remove_allowed = 1)
           and (select count(*) from network_relations r where r.operator_id = c.operator_id and r.source_cell_dn = c.dn and r.is_ho_allowed = 1) >= 2
         order by c.name limit 1`,
      )
      .get() as { name: string; site: string; dn: string };
    const relations = db
      .prepare(
        `select r.dn, t.name as target, r.is_remove_allowed as removable, r.is_ho_allowed as hoAllowed
         from network_relations r join network_cells t on t.operator_id = r.operator_id and t.dn = r.target_cell_dn
         where r.operator_id = ${OPERATOR} and r.source_cell_dn = ? order by r.dn`,
      )
      .all(source.dn) as Relation[];
    const removed = relations.find((r) => r.removable === 1)!;
    const blocked = relations.find((r) => r !== removed && r.hoAllowed === 1)!;
    const targets = new Set(relations.map((r) => r.target));
    const added = (
      db.prepare(`select name from network_cells where operator_id = ${OPERATOR} and tech = '4G' and site_id <> ? order by name`).all(source.site) as Array<{
        name: string;
      }>
    ).find((c) => !targets.has(c.name))!.name;
    return { source: source.name, sourceSite: source.site, relations, removed, blocked, added };
  } finally {
    db.close();
  }
}

/** Two days of statistics: the removed relation has no row, the blocked one fails half its handovers, the added cell is busy. */
function statistics(plan: Plan): Array<[string, string, string, number, number]> {
  const rows: Array<[string, string, string, number, number]> = [];
  for (const day of ['2026-11-16', '2026-11-17']) {
    for (const r of plan.relations) {
      if (r === plan.removed) continue;
      rows.push(r === plan.blocked ? [plan.source, r.target, day, 100, 50] : [plan.source, r.target, day, 400, 398]);
    }
    rows.push([plan.source, plan.added, day, 150, 140]);
  }
  return rows;
}

let plan: Plan;
let statisticsFile: string;

test('the template downloads with its headers and Read me, and is filled with statistics of demo relations', async ({ page }) => {
  plan = await planFromDemoNetwork();
  await page.goto(`${app.url}/optimization/nbrRelationsOptimization`);
  await expect(page.getByRole('heading', { name: 'Nbr Relations Optimization' })).toBeVisible();
  const template = await download(page, () => button(page, 'Download template').click());
  const book = await readBook(template);
  expect(book.worksheets.map((s) => s.name)).toEqual(['Statistics', 'Read me']);
  const sheet = book.getWorksheet('Statistics')!;
  expect(sheet.getRow(1).values).toEqual([undefined, 'Source Cell', 'Target Cell', 'Period', 'Attempts', 'Successes']);
  expect(JSON.stringify(book.getWorksheet('Read me')!.getSheetValues())).toContain('success rate is below 90%');

  // The demo network's statistics take the example rows' place; example rows left over are emptied.
  const rows = statistics(plan);
  const last = Math.max(sheet.rowCount, rows.length + 1);
  for (let n = 2; n <= last; n += 1) sheet.getRow(n).values = rows[n - 2] ?? [];
  statisticsFile = path.join(workDir, 'ho-statistics.xlsx');
  await book.xlsx.writeFile(statisticsFile);
});

const RUN_OR_UPLOAD_PROGRESS = '[aria-label="Run progress"], [aria-label="Upload progress"]';

test('the statistics are uploaded and run with progress; the counts, the candidates and the workbook (downloaded when asked) say what to remove, block and add', async ({
  page,
}) => {
  await page.goto(`${app.url}/optimization/nbrRelationsOptimization`);
  await watchShown(page, RUN_OR_UPLOAD_PROGRESS);
  await page.locator('input[type="file"]').setInputFiles(statisticsFile);
  await button(page, 'Upload and optimise').click();
  const result = page.getByTestId('run-result');
  await expect(result).toContainText('Optimised 1 cell over 2 periods: 1 to remove, 1 to block, 1 to add.');
  expect(await wasShown(page, RUN_OR_UPLOAD_PROGRESS)).toBe(true);
  const workbook = await download(page, () => button(result, 'Download workbook').click());
  const verdicts = result.getByLabel('Verdicts');
  await expect(verdicts).toContainText('Remove: 1');
  await expect(verdicts).toContainText('Block: 1');
  await expect(verdicts).toContainText('Add: 1');
  // Three sheets of one row each: the first, Remove, is shown first.
  await expect(result).toContainText(plan.removed.target);

  const book = await readBook(workbook);
  expect(book.worksheets.map((s) => s.name)).toEqual(['Remove', 'Block', 'Add', 'Inputs']);
  expect(rowsOf(book.getWorksheet('Remove')!).map((r) => r.slice(0, 4))).toEqual([[plan.source, plan.sourceSite, plan.removed.target, plan.removed.dn]]);
  expect(rowsOf(book.getWorksheet('Block')!).map((r) => [r[2], r[5], r[6], r[7]])).toEqual([[plan.blocked.target, 200, 100, 50]]);
  expect(rowsOf(book.getWorksheet('Add')!).map((r) => [r[0], r[2], r[4], r[5]])).toEqual([[plan.source, plan.added, 300, 280]]);
  expect(rowsOf(book.getWorksheet('Inputs')!)).toContainEqual(['File', `ho-statistics.xlsx: ${statistics(plan).length} rows`]);
});

test('the run is in the history with its sites, files and outcome, and its workbook downloads again', async ({ page }) => {
  await page.goto(`${app.url}/optimization/nbrRelationsOptimization`);
  const history = tableOf(page, 'Nbr Relations Optimization History');
  const row = history.locator('tr.ant-table-row').first();
  await expect(row).toContainText('ho-statistics.xlsx');
  await expect(row).toContainText(plan.sourceSite);
  await expect(row).toContainText('Remove 1, Block 1, Add 1');
  const again = await download(page, () => row.getByRole('button', { name: /Download the workbook of run \d+/ }).click());
  expect((await readBook(again)).worksheets.map((s) => s.name)).toEqual(['Remove', 'Block', 'Add', 'Inputs']);
});

test('a workbook without the counters is refused naming what it lacks, and nothing is recorded', async ({ page }) => {
  const book = new ExcelJS.Workbook();
  book.addWorksheet('Sheet1').addRows([
    ['Source', 'Target', 'Date'],
    [plan.source, plan.added, '2026-11-16'],
  ]);
  const file = path.join(workDir, 'no-counters.xlsx');
  await book.xlsx.writeFile(file);
  await page.goto(`${app.url}/optimization/nbrRelationsOptimization`);
  const history = tableOf(page, 'Nbr Relations Optimization History');
  await expect(history.locator('tr.ant-table-row')).toHaveCount(1);
  await page.locator('input[type="file"]').setInputFiles(file);
  await button(page, 'Upload and optimise').click();
  await expect(page.getByTestId('run-refusal')).toContainText('File no-counters.xlsx lacks the columns Attempts');
  await page.reload();
  await expect(history.locator('tr.ant-table-row')).toHaveCount(1);
});
