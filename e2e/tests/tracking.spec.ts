import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { consoleForThisFile } from '../support/console';
import { button } from '../support/locators';
import { PLAN_FIELDS } from '../support/workbooks';
import { TRACKER_FIELDS as CONTRACT_TRACKER_FIELDS, WORK_ORDER_DELTA_FIELDS, WORK_ORDER_STATUS_FIELDS } from 'contracts';
import { ADMIN, signInByToken } from '../support/session';

// The contract's lists, which are its row schemas' fields (workbook headers, export columns).
const TRACKER_FIELDS = [...CONTRACT_TRACKER_FIELDS];
const WOW_FIELDS = [...WORK_ORDER_STATUS_FIELDS];
const DELTA_FIELDS = [...WORK_ORDER_DELTA_FIELDS];

type Cell = string | number | Date | null;
type Row = Record<string, Cell>;

const day = (iso: string) => new Date(iso);

// Three sites: one delivered in the past, one planned ahead, one late with no work order.
const PLAN: Row[] = [
  {
    localId: 'E2E001',
    technology: '4G',
    equipCode: 'EQ-001',
    equipName: 'Lisboa Baixa',
    supplier: 'Ericsson',
    workType: 'New site',
    commDate: day('2026-03-05T10:00:00Z'),
    week: 10,
    mkOwner: 'Ana Costa',
    impOwner: 'Rui Lopes',
    btsArea: 'Lisboa',
    btsTech: 'Joana Reis',
    project: 'Operations',
    comments: 'Roof top',
    statResponse: 'OK',
    bssTech: 'Marta Silva',
    workOrder: 'WO-001',
    localType: 'Macro',
  },
  {
    localId: 'E2E002',
    technology: '5G',
    equipCode: 'EQ-002',
    equipName: 'Almada Sul',
    supplier: 'Ericsson',
    workType: 'Upgrade',
    commDate: day('2099-01-15T08:30:00Z'),
    week: 3,
    mkOwner: 'Ana Costa',
    impOwner: 'Rui Lopes',
    btsArea: 'Setúbal',
    btsTech: 'Joana Reis',
    project: 'Operations',
    comments: null,
    statResponse: 'Pending',
    bssTech: 'Marta Silva',
    workOrder: 'WO-002',
    localType: 'Macro',
  },
  {
    localId: 'E2E003',
    technology: '3G',
    equipCode: 'EQ-003',
    equipName: 'Sintra Vila',
    supplier: 'Nokia',
    workType: 'Swap',
    commDate: day('2026-01-20T12:00:00Z'),
    week: 4,
    mkOwner: 'Pedro Nunes',
    impOwner: 'Rui Lopes',
    btsArea: 'Sintra',
    btsTech: 'Joana Reis',
    project: 'Operations',
    comments: '=1+1 stays text',
    statResponse: 'OK',
    bssTech: 'Marta Silva',
    workOrder: 'WO-003',
    localType: 'Small cell',
  },
];

const TRACKER: Row[] = [
  {
    localId: 'TRK001',
    equipName: 'Porto Ribeira',
    supplier: 'Huawei',
    commDate: day('2026-02-10T09:00:00Z'),
    mkOwner: 'Ana Costa',
    impOwner: 'Rui Lopes',
    project: 'Operations',
    comments: 'Imported',
    bssTech: 'Marta Silva',
    localType: 'Macro',
    scheduleStatus: 'Delayed',
    dateEntry: day('2026-01-02T00:00:00Z'),
    week: 7,
    dayCount: 40,
    currentStatus: 'In progress',
    deliveredDate: null,
  },
  {
    localId: 'TRK002',
    equipName: 'Braga Centro',
    supplier: 'Nokia',
    commDate: day('2026-02-12T09:00:00Z'),
    mkOwner: 'Pedro Nunes',
    impOwner: 'Rui Lopes',
    project: 'Operations',
    comments: null,
    bssTech: 'Marta Silva',
    localType: 'Micro',
    scheduleStatus: 'Done',
    dateEntry: day('2026-01-05T00:00:00Z'),
    week: 7,
    dayCount: 37,
    currentStatus: 'Closed',
    deliveredDate: day('2026-02-20T17:00:00Z'),
  },
];

// E2E001: every work order closed (delivered); E2E002: open; E2E004: a site the plan does not hold.
const WOW: Row[] = [
  {
    siteId: 'E2E001',
    woType: 'Install',
    woId: 'WO-001',
    wowStatus: 'Closed',
    wowCloseDate: day('2026-03-10T16:00:00Z'),
    wowLastChange: day('2026-03-10T16:00:00Z'),
    wowLastUpdate: day('2026-03-11T08:00:00Z'),
  },
  {
    siteId: 'E2E002',
    woType: 'Install',
    woId: 'WO-002',
    wowStatus: 'In progress',
    wowCloseDate: null,
    wowLastChange: day('2026-04-01T10:00:00Z'),
    wowLastUpdate: day('2026-04-02T08:00:00Z'),
  },
  {
    siteId: 'E2E004',
    woType: 'Survey',
    woId: 'WO-004',
    wowStatus: 'Open',
    wowCloseDate: null,
    wowLastChange: day('2026-04-03T10:00:00Z'),
    wowLastUpdate: day('2026-04-03T11:00:00Z'),
  },
];

let workDir: string;

test.use({ timezoneId: 'UTC', acceptDownloads: true });
test.describe.configure({ mode: 'serial' });

// With the demo data: the administrator's Operations project (canTrack) comes with it. Each import
// below replaces the demo rows, so the rows checked are the test's own.
const app = consoleForThisFile();
test.beforeAll(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-tracking-e2e-'));
});
test.afterAll(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});
test.beforeEach(async ({ page }) => {
  await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
});

async function writeWorkbook(name: string, headers: string[], rows: Row[]): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Data');
  sheet.addRow(headers);
  for (const row of rows) sheet.addRow(headers.map((h) => row[h] ?? null));
  const file = path.join(workDir, name);
  await workbook.xlsx.writeFile(file);
  return file;
}

const KNOWN_FIELDS = ['id', ...PLAN_FIELDS, 'LastUpdate', ...TRACKER_FIELDS, ...DELTA_FIELDS];
/** The field a header names as the import reads it (case and spaces ignored): exports write the column titles ('Local Id'). */
const fieldOf = (header: string): string => KNOWN_FIELDS.find((f) => f.toLowerCase() === header.replace(/\s+/g, '').toLowerCase()) ?? header;

/** The first sheet of a workbook: its headers as written, the fields they name, and field → text cells (dates as ISO-8601). */
async function readWorkbook(file: string): Promise<{ headers: string[]; fields: string[]; rows: Array<Record<string, string>> }> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const sheet = workbook.worksheets[0]!;
  const text = (value: ExcelJS.CellValue): string => {
    if (value === null || value === undefined) return '';
    if (value instanceof Date) return value.toISOString();
    if (typeof value === 'object' && 'richText' in value) return value.richText.map((r) => r.text).join('');
    if (typeof value === 'object' && 'text' in value) return String(value.text);
    return String(value);
  };
  const headers: string[] = [];
  sheet.getRow(1).eachCell({ includeEmpty: false }, (cell, col) => (headers[col - 1] = text(cell.value)));
  const rows: Array<Record<string, string>> = [];
  for (let r = 2; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    if (!row.hasValues) continue;
    rows.push(Object.fromEntries(headers.map((h, i) => [fieldOf(h), text(row.getCell(i + 1).value)])));
  }
  return { headers, fields: headers.map(fieldOf), rows };
}

/** The rows a table shows, cell texts in column order. */
async function tableRows(table: Locator): Promise<string[][]> {
  const rows = table.locator('.ant-table-tbody tr.ant-table-row');
  const out: string[][] = [];
  for (let i = 0; i < (await rows.count()); i++) out.push((await rows.nth(i).locator('td').allInnerTexts()).map((t) => t.trim()));
  return out;
}

async function expectRowCount(page: Page, total: number): Promise<void> {
  await expect(page.locator('.cw-pagination-total')).toHaveText(`1-${Math.min(total, 10)} of ${total}`);
}

// Exact, and the first: the hub's notification of the same event can show next to the call's own toast.
const toast = (page: Page, text: string) => page.locator('.ant-notification-notice').getByText(text, { exact: true }).first();
const banner = (page: Page) => page.locator('.cw-callout-info');

/** Waits until the banner shows a date no older than `since` (its text reads '<label>: DD-MM-YYYY HH:mm:ss'). */
async function expectBannerSince(page: Page, label: string, since: Date): Promise<void> {
  const floor = Math.floor(since.getTime() / 1000) * 1000;
  await expect(async () => {
    const match = new RegExp(`^${label}: (\\d\\d)-(\\d\\d)-(\\d{4}) (\\d\\d):(\\d\\d):(\\d\\d)$`).exec(await banner(page).innerText());
    expect(match).not.toBeNull();
    const [, d, m, y, hh, mm, ss] = match!.map(Number);
    expect(Date.UTC(y!, m! - 1, d!, hh!, mm!, ss!)).toBeGreaterThanOrEqual(floor);
  }).toPass();
}

async function openImport(page: Page, label: string, title: string): Promise<Locator> {
  await button(page, label).click();
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function importFile(page: Page, label: string, title: string, file: string): Promise<Locator> {
  const dialog = await openImport(page, label, title);
  await dialog.locator('input[type="file"]').setInputFiles(file);
  await expect(dialog.getByText(path.basename(file))).toBeVisible();
  await button(dialog, 'Upload').click();
  return dialog;
}

async function download(page: Page, trigger: Locator): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), trigger.click()]);
  const target = path.join(workDir, file.suggestedFilename());
  await file.saveAs(target);
  return target;
}

test('commissioning plan: import, export that re-imports to the same rows, a bad date changes nothing, oversized and fake files are refused', async ({
  page,
}) => {
  await page.goto(app.url + '/tracking/commissioningplan');
  await expect(page.getByRole('heading', { name: 'Commissioning Plan' })).toBeVisible();
  const table = page.locator('.ant-table-wrapper');

  // Import: the dialog closes, the table and the banner reload.
  const started = new Date();
  let dialog = await importFile(page, 'Import', 'Import Commissioning Plan', await writeWorkbook('plan.xlsx', PLAN_FIELDS, PLAN));
  await expect(toast(page, 'Commissioning Plan successfully imported!')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expectBannerSince(page, 'Last import', started);
  await expectRowCount(page, 3);
  const imported = await tableRows(table);
  expect(imported.map((r) => r.slice(0, 9))).toEqual([
    ['E2E001', '4G', 'EQ-001', 'Lisboa Baixa', 'Ericsson', 'New site', '05-03-2026 10:00:00', '10', 'Ana Costa'],
    ['E2E002', '5G', 'EQ-002', 'Almada Sul', 'Ericsson', 'Upgrade', '15-01-2099 08:30:00', '3', 'Ana Costa'],
    ['E2E003', '3G', 'EQ-003', 'Sintra Vila', 'Nokia', 'Swap', '20-01-2026 12:00:00', '4', 'Pedro Nunes'],
  ]);
  expect(imported[2]![13]).toBe('=1+1 stays text');

  // Export: exactly the table's columns; the workbook re-imports to the same rows.
  const exported = await download(page, button(page, 'Export'));
  expect(path.extname(exported)).toBe('.xlsx');
  const sheet = await readWorkbook(exported);
  expect(sheet.fields).toEqual(['id', ...PLAN_FIELDS, 'LastUpdate']);
  expect(sheet.headers.slice(0, 2)).toEqual(['Id', 'Local Id']);
  expect(sheet.rows.map((r) => r.localId)).toEqual(['E2E001', 'E2E002', 'E2E003']);
  expect(sheet.rows[2]!.comments).toBe('=1+1 stays text');
  dialog = await importFile(page, 'Import', 'Import Commissioning Plan', exported);
  await expect(toast(page, 'Commissioning Plan successfully imported!')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expectRowCount(page, 3);
  const withoutLastUpdate = (rows: string[][]) => rows.map((r) => r.slice(0, -1));
  expect(withoutLastUpdate(await tableRows(table))).toEqual(withoutLastUpdate(imported));

  // One bad date: nothing changes, the dialog names the row (header = row 1, so the third site is row 4).
  const before = await tableRows(table);
  const stamp = await banner(page).innerText();
  const bad = PLAN.map((r, i) => (i === 2 ? { ...r, commDate: '31-02-2026' } : r));
  dialog = await importFile(page, 'Import', 'Import Commissioning Plan', await writeWorkbook('plan-bad.xlsx', PLAN_FIELDS, bad));
  const problems = dialog.getByTestId('import-problems');
  await expect(problems.getByText('1 row has problems; nothing was imported.')).toBeVisible();
  const problemRows = await tableRows(problems);
  expect(problemRows).toHaveLength(1);
  expect(problemRows[0]!.slice(0, 2)).toEqual(['4', 'commDate']);
  const errors = await readWorkbook(await download(page, problems.getByRole('button', { name: /Download error workbook/ })));
  expect(errors.headers.at(-1)).toBe('Error');
  expect(errors.rows.map((r) => r.Error !== '')).toEqual([false, false, true]);
  await button(dialog, 'Close').last().click();
  await expect(dialog).toBeHidden();
  expect(await tableRows(table)).toEqual(before);
  await expect(banner(page)).toHaveText(stamp);

  // 11 MB: refused in the browser with the §8 warning; nothing reaches the file service.
  const uploads: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/File/Upload')) uploads.push(request.url());
  });
  const huge = path.join(workDir, 'huge.xlsx');
  fs.writeFileSync(huge, Buffer.alloc(11 * 1024 * 1024, 1));
  dialog = await openImport(page, 'Import', 'Import Commissioning Plan');
  // A fresh opening: the problems of the last attempt are gone.
  await expect(dialog.getByTestId('import-problems')).toHaveCount(0);
  await dialog.locator('input[type="file"]').setInputFiles(huge);
  await expect(toast(page, 'File huge.xlsx not valid. Please check file size.')).toBeVisible();
  await expect(button(dialog, 'Upload')).toBeDisabled();
  expect(uploads).toEqual([]);

  // A text file named .xlsx: the server refuses it by its content.
  const fake = path.join(workDir, 'notes.xlsx');
  fs.writeFileSync(fake, 'this is not a workbook\n');
  await dialog.locator('input[type="file"]').setInputFiles(fake);
  await button(dialog, 'Upload').click();
  await expect(dialog.getByText('File notes.xlsx is not an Excel workbook (.xlsx).')).toBeVisible();
  expect(uploads).toHaveLength(1);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect(await tableRows(table)).toEqual(before);
});

test('tracker: import and an export that re-imports to the same rows', async ({ page }) => {
  await page.goto(app.url + '/tracking/tracker');
  await expect(page.getByRole('heading', { name: 'Tracker' })).toBeVisible();
  const table = page.locator('.ant-table-wrapper');

  const started = new Date();
  const dialog = await importFile(page, 'Import', 'Import Tracker', await writeWorkbook('tracker.xlsx', TRACKER_FIELDS, TRACKER));
  await expect(toast(page, 'Tracker successfully imported!')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expectBannerSince(page, 'Tracker date', started);
  await expectRowCount(page, 2);
  const imported = await tableRows(table);
  expect(imported.map((r) => [r[0], r[3], r[10], r[11], r[14], r[15]])).toEqual([
    ['TRK001', '10-02-2026 09:00:00', 'Delayed', '02-01-2026 00:00:00', 'In progress', ''],
    ['TRK002', '12-02-2026 09:00:00', 'Done', '05-01-2026 00:00:00', 'Closed', '20-02-2026 17:00:00'],
  ]);

  const exported = await download(page, button(page, 'Export'));
  const sheet = await readWorkbook(exported);
  expect(sheet.fields).toEqual(TRACKER_FIELDS);
  expect(sheet.rows.map((r) => r.localId)).toEqual(['TRK001', 'TRK002']);
  const again = await importFile(page, 'Import', 'Import Tracker', exported);
  await expect(again).toBeHidden();
  await expectRowCount(page, 2);
  expect(await tableRows(table)).toEqual(imported);
});

test('work order status: import, export that re-imports, Sync Tracker rebuilds the tracker, Export Delta writes the delta', async ({ page }) => {
  await page.goto(app.url + '/tracking/workorderstatus');
  await expect(page.getByRole('heading', { name: 'Work Order Status' })).toBeVisible();

  const started = new Date();
  let dialog = await importFile(page, 'Import Status', 'Import Work Order Status', await writeWorkbook('wow.xlsx', WOW_FIELDS, WOW));
  await expect(toast(page, 'Work Order Status successfully imported!')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expectBannerSince(page, 'Last import', started);

  const status = await readWorkbook(await download(page, button(page, 'Export Status')));
  expect(status.fields).toEqual(WOW_FIELDS);
  expect(status.rows.map((r) => [r.siteId, r.woId, r.wowStatus, r.wowCloseDate])).toEqual([
    ['E2E001', 'WO-001', 'Closed', '2026-03-10T16:00:00.000Z'],
    ['E2E002', 'WO-002', 'In progress', ''],
    ['E2E004', 'WO-004', 'Open', ''],
  ]);
  dialog = await importFile(page, 'Import Status', 'Import Work Order Status', await writeWorkbook('wow-again.xlsx', status.fields, status.rows));
  await expect(dialog).toBeHidden();
  const reexported = await readWorkbook(await download(page, button(page, 'Export Status')));
  expect(reexported.rows).toEqual(status.rows);

  // Sync: the tracker becomes one row per planned site, its status from the work orders (docs/engines/tracking.md#rules-applied).
  await page.goto(app.url + '/tracking/tracker');
  const syncStarted = new Date();
  await page.getByRole('button', { name: 'More options' }).click();
  await page.getByRole('menuitem', { name: /Sync Tracker/ }).click();
  // The sync says what changed, in its toast and on the page (the sites of an earlier tracker import, if any, are removed).
  const synced = /^Tracker synced: 3 sites: 3 added, 0 updated, 0 unchanged(, \d+ removed)?; no status moved\.$/;
  await expect(page.locator('.ant-notification-notice').getByText(synced).first()).toBeVisible();
  await expect(page.getByTestId('tracker-sync-changes')).toHaveText(synced);
  await expectBannerSince(page, 'Tracker date', syncStarted);
  await expectRowCount(page, 3);
  const tracker = await tableRows(page.locator('.ant-table-wrapper'));
  // localId, commDate, scheduleStatus, week, currentStatus, deliveredDate
  expect(tracker.map((r) => [r[0], r[3], r[10], r[12], r[14], r[15]])).toEqual([
    ['E2E001', '05-03-2026 10:00:00', 'Done', '10', 'Closed', '10-03-2026 16:00:00'],
    ['E2E002', '15-01-2099 08:30:00', 'On time', '3', 'In progress', ''],
    ['E2E003', '20-01-2026 12:00:00', 'Delayed', '4', '', ''],
  ]);

  // The delta after the sync: the planned site without work orders, and the work order of an unknown site.
  await page.goto(app.url + '/tracking/workorderstatus');
  const deltaTable = page.locator('.ant-table-wrapper');
  await expectRowCount(page, 2);
  const delta = await tableRows(deltaTable);
  // The action follows the work order it is about (issue 16: it was off screen as the last column).
  expect(delta.map((r) => [r[0], r[1], r[2], r[3]])).toEqual([
    ['E2E003', '', '', 'Missing in WOW'],
    ['E2E004', 'Survey', 'WO-004', 'Missing in tracker'],
  ]);
  const deltaSheet = await readWorkbook(await download(page, button(page, 'Export Delta')));
  expect(deltaSheet.fields).toEqual(DELTA_FIELDS);
  expect(deltaSheet.rows.map((r) => [r.siteId, r.woType, r.woId, r.action])).toEqual([
    ['E2E003', '', '', 'Missing in WOW'],
    ['E2E004', 'Survey', 'WO-004', 'Missing in tracker'],
  ]);
});

/** A large plan in the spec's field order, written with exceljs' streaming writer (as the API's 100k-row test does). */
async function writeLargePlan(name: string, rows: number): Promise<string> {
  const file = path.join(workDir, name);
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: true, useSharedStrings: false });
  const sheet = book.addWorksheet('Plan');
  sheet.addRow(PLAN_FIELDS).commit();
  for (let i = 1; i <= rows; i += 1) {
    const row: Row = {
      localId: `LX${String(i % 1000).padStart(4, '0')}`,
      technology: ['4G', '5G', '3G'][i % 3]!,
      equipCode: `EQ-${i}`,
      equipName: `Equipment ${i}`,
      supplier: i % 2 ? 'Ericsson' : 'Nokia',
      workType: ['Swap', 'New site', 'Upgrade'][i % 3]!,
      commDate: new Date(Date.UTC(2026, i % 12, (i % 28) + 1, 10, 30, 0)),
      week: (i % 52) + 1,
      mkOwner: 'Ana Costa',
      impOwner: 'Rui Lopes',
      btsArea: 'Lisboa',
      btsTech: 'LTE',
      project: 'Rollout 2026',
      comments: `note ${i}`,
      statResponse: 'OK',
      bssTech: 'BSS',
      workOrder: `WO-${i}`,
      localType: 'Macro',
    };
    sheet.addRow(PLAN_FIELDS.map((f) => row[f] ?? null)).commit();
  }
  sheet.commit();
  await book.commit();
  return file;
}

// Last in the file: it replaces the plan the tests above import and sync.
test('commissioning plan: a large workbook shows the import job’s progress in the dialog until it answers', async ({ page }) => {
  test.setTimeout(240_000);
  const rows = 60_000;
  const file = await writeLargePlan('plan-large.xlsx', rows);
  // Under the 10,000,000-byte upload limit, or the browser would refuse it before any import.
  expect(fs.statSync(file).size).toBeLessThan(10_000_000);

  await page.goto(app.url + '/tracking/commissioningplan');
  await expect(page.getByRole('heading', { name: 'Commissioning Plan' })).toBeVisible();
  const dialog = await importFile(page, 'Import', 'Import Commissioning Plan', file);

  // The import job's stage and percent, from its JobProgress events, while the call is pending.
  const status = dialog.getByRole('status');
  // The sheet is read in one pass, so its row count is known only at the end: the stage counts the rows
  // read, and the percentage follows the share of the sheet read.
  const stage = status.getByText(/^Reading rows [\d,]+$/);
  await expect(stage).toBeVisible({ timeout: 60_000 });
  // Read at one instant, as the events move it on every quarter second: bar, stage and a Close that waits for the answer.
  const shown = await dialog.evaluate((el) => {
    const status = el.querySelector('[role="status"]');
    const bar = status?.querySelector('[role="progressbar"]');
    const close = Array.from(el.querySelectorAll('button')).find((b) => b.textContent === 'Close');
    return {
      label: bar?.getAttribute('aria-label'),
      percent: Number(bar?.getAttribute('aria-valuenow')),
      text: status?.textContent,
      closeDisabled: close?.disabled,
    };
  });
  expect(shown.label).toBe('Import progress');
  expect(shown.percent).toBeGreaterThanOrEqual(0);
  expect(shown.percent).toBeLessThanOrEqual(100);
  expect(shown.text).toMatch(new RegExp(`^${shown.percent}%Reading rows [\\d,]+$`));
  expect(shown.closeDisabled).toBe(true);

  // The answer: the same as for a small file.
  await expect(toast(page, 'Commissioning Plan successfully imported!')).toBeVisible({ timeout: 180_000 });
  await expect(dialog).toBeHidden();
  await expect(page.locator('.cw-pagination-total')).toHaveText(`1-10 of ${rows.toLocaleString('en-GB')}`);
});
