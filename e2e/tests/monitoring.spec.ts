import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { consoleForThisFile } from '../support/console';
import { button, tableOf } from '../support/locators';
import { outboxFiles } from '../support/mail';
import { logArchive, readZip, type NodeLog } from '../support/mobatch';
import { ADMIN, signInByToken } from '../support/session';
import { wasShown, watchShown } from '../support/shown';

// Two demo-network nodes: LX0001 with a Major alarm (NOK) and a Warning, LX0002 with Warnings only (OK).
const LOGS: NodeLog[] = [
  {
    node: 'LX0001',
    header: '261120-10:15:00',
    crlf: true,
    alarms: [
      { time: '2026-11-20 09:00:00', severity: 'M', problem: 'Link Failure', mo: 'ENodeBFunction=1,TermPointToMme=MME_1', info: 'S1 link down' },
      { time: '2026-11-20 08:00:00', severity: 'w', problem: 'Calendar Clock NTP Server Unavailable', mo: 'SysM=1,TimeM=1,Ntp=1', info: 'No NTP' },
    ],
    ret: [
      ['S1_L800', 30],
      ['S2_L800', 45],
    ],
  },
  {
    node: 'LX0002',
    header: '261120-10:16:00',
    alarms: [{ time: '2026-11-20 07:30:00', severity: 'w', problem: 'Disk Usage High', mo: 'SysM=1', info: '81 % used' }],
    ret: [['S1_L1800', 20]],
  },
];
const NOTE = 'Field team dispatched to LX0001';

let workDir: string;
let archive: string;

test.use({ timezoneId: 'UTC', acceptDownloads: true });
test.describe.configure({ mode: 'serial' });

// With the demo data: the demo logs are parsed at first start; the uploads below replace LX0001 and LX0002.
const app = consoleForThisFile();
test.beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-monitoring-e2e-'));
  archive = path.join(workDir, 'mobatch_4G.zip');
  fs.writeFileSync(archive, await logArchive(LOGS));
});
test.afterAll(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});
test.beforeEach(async ({ page }) => {
  await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
});

/** The tab panel on show: antd gives panels no accessible name, and hidden panels have no role. */
const activeTab = (page: Page) => page.getByRole('tabpanel');
const rowOf = (table: Locator, text: string) => table.locator('tr.ant-table-row').filter({ hasText: text });

async function download(page: Page, trigger: Locator): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), trigger.click()]);
  const target = path.join(workDir, file.suggestedFilename());
  await file.saveAs(target);
  return target;
}

const PARSE_PROGRESS = '[aria-label="Parse progress"]';

async function uploadLogs(page: Page): Promise<void> {
  await page.goto(`${app.url}/monitoring/uploadLogs`);
  await page.locator('input[type="file"]').setInputFiles(archive);
  await button(page, 'Upload and parse').click();
  await expect(page.locator('.ant-alert-success').filter({ hasText: 'Successfully parsed 2 files.' })).toBeVisible();
}

test('Get MoBatch Scripts hands out the sites, a command file per technology and the mobatch README', async ({ page }) => {
  await page.goto(`${app.url}/monitoring/uploadLogs`);
  const files = await readZip(fs.readFileSync(await download(page, button(page, 'Get MoBatch Scripts'))));
  expect(files['sites.txt']!.split(/\r?\n/)).toEqual(expect.arrayContaining(['LX0001', 'LX0002']));
  const commands = Object.entries(files).filter(([name]) => name.endsWith('.mos'));
  expect(commands.length).toBeGreaterThan(0);
  const lte = commands.map(([, text]) => text).find((text) => text.includes('st mme'));
  expect(lte).toBeDefined();
  for (const line of [
    'lt all',
    'alt',
    'st cell',
    'st term',
    'hget retsubunit electricalAntennaTilt|operationalState|userLabel|maxTilt|minTilt|iuantAntennaSerialNumber',
  ]) {
    expect(lte!.split(/\r?\n/)).toContain(line);
  }
  const readme = Object.entries(files).find(([name]) => /readme/i.test(name))?.[1] ?? '';
  expect(readme).toMatch(/mobatch -p \d+ -t \d+ \S+ \S+\.mos \S+/);
});

test('an uploaded zip of logs is parsed with progress, then the logs date, the success message and a notification that opens the report', async ({ page }) => {
  await page.goto(`${app.url}/monitoring/uploadLogs`);
  await watchShown(page, PARSE_PROGRESS);
  await page.locator('input[type="file"]').setInputFiles(archive);
  await button(page, 'Upload and parse').click();
  await expect(page.locator('.ant-alert-success').filter({ hasText: 'Successfully parsed 2 files.' })).toBeVisible();
  expect(await wasShown(page, PARSE_PROGRESS)).toBe(true);
  // The demo logs were taken later than these, so the banner shows the newest logs date of all nodes.
  await expect(page.locator('.cw-callout-info')).toContainText(/^Logs date: \d\d-\d\d-\d{4} \d\d:\d\d:\d\d$/);

  await page.getByRole('button', { name: /Notifications \(\d+ unread\)/ }).click();
  const notice = page
    .getByTestId('notification-list')
    .getByText(/^Successfully parsed 2 files\./)
    .first();
  await expect(notice).toBeVisible();
  await notice.click();
  await expect(page).toHaveURL(/\/monitoring\/uploadLogs\?report=\d+$/);
  const report = page.getByRole('dialog', { name: /^Parse report #\d+$/ });
  await expect(report).toContainText('LX0001.log');
  await expect(report).toContainText('mobatch_result.txt');
});

test('the fault summary says NOK for a site with a Major alarm and OK for a site with only Warning alarms', async ({ page }) => {
  await page.goto(`${app.url}/monitoring/faultManagement`);
  const summary = tableOf(page, 'Fault Summary');
  await expect(rowOf(summary, 'LX0001').first()).toBeVisible();
  const lx1 = rowOf(summary, 'LX0001').first();
  const lx2 = rowOf(summary, 'LX0002').first();
  await expect(lx1).toContainText('NOK');
  await expect(lx1).toContainText('Link Failure');
  await expect(lx2).toContainText('OK');
  await expect(lx2).not.toContainText('NOK');
  await expect(lx2).toContainText('Disk Usage High');
});

test('an alarm acknowledged with a note keeps its note after the same logs are uploaded again', async ({ page }) => {
  await page.goto(`${app.url}/monitoring/faultManagement`);
  await page.getByRole('button', { name: 'Show the alarms of LX0001' }).click();
  const alarms = tableOf(page, 'Alarm List');
  const alarm = rowOf(alarms, 'Link Failure');
  await expect(alarm).toHaveCount(1);
  await button(alarm, 'Acknowledge').click();
  const dialog = page.getByRole('dialog', { name: 'Acknowledge alarm' });
  await dialog.getByLabel('Note').fill(NOTE);
  await button(dialog, 'Save').click();
  await expect(rowOf(alarms, 'Link Failure')).toContainText(NOTE);

  await uploadLogs(page);
  await page.goto(`${app.url}/monitoring/faultManagement`);
  await page.getByRole('button', { name: 'Show the alarms of LX0001' }).click();
  const again = rowOf(tableOf(page, 'Alarm List'), 'Link Failure');
  await expect(again).toContainText(NOTE);
  await expect(again).toContainText('Yes');
});

test('the site report shows RET rows and every tab, downloads one sheet per table and mails the workbook', async ({ page }) => {
  await page.goto(`${app.url}/monitoring/siteReport`);
  await page.getByRole('combobox', { name: 'Site' }).fill('LX0001');
  await page.locator('.ant-select-item-option').filter({ hasText: 'LX0001' }).first().click();
  await expect(page).toHaveURL(/siteId=LX0001/);
  await expect(tableOf(page, 'Site Summary')).toBeVisible();
  await expect(tableOf(page, 'Commissioning Information')).toBeVisible();

  await page.getByRole('tab', { name: 'RET Information' }).click();
  const ret = activeTab(page);
  await expect(rowOf(ret, 'S1_L800')).toContainText('3');
  await expect(rowOf(ret, 'S2_L800')).toContainText('4.5');
  for (const tab of [
    'Alarms',
    'Configuration Check 2G',
    'Configuration Check 3G',
    'Configuration Check 4G',
    'Configuration Check 5G',
    'Configuration Check NBIoT',
  ]) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(activeTab(page).locator('.ant-table-wrapper').first()).toBeVisible();
    await expect(activeTab(page)).toContainText(tab);
    // The acknowledgement made above is part of the report too.
    if (tab === 'Alarms') await expect(rowOf(activeTab(page), 'Link Failure')).toContainText(NOTE);
  }

  const workbookFile = await download(page, button(page, 'Excel Report'));
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(workbookFile);
  const sheets = workbook.worksheets.map((s) => s.name);
  expect(sheets).toEqual(expect.arrayContaining(['Site Summary', 'Commissioning Information', 'RET Information', 'Alarms', 'Configuration Check 4G']));
  expect(sheets.length).toBe(new Set(sheets).size);

  const before = outboxFiles(app.dataDir);
  // 'Email Report' opens the recipients dialog with the caller chosen (issue 47: a report may go to a list).
  await button(page, 'Email Report').click();
  await page.getByRole('dialog', { name: 'Email the report of LX0001' }).getByRole('button', { name: 'Send' }).click();
  await expect(page.locator('.ant-notification-notice').getByText('Report sent to 1 recipient.').first()).toBeVisible();
  const outbox = path.join(app.dataDir, 'outbox');
  const mail = fs
    .readdirSync(outbox)
    .filter((f) => !before.has(f) && f.endsWith('.eml'))
    .map((f) => fs.readFileSync(path.join(outbox, f), 'utf8'))
    .find((m) => m.includes(ADMIN.email));
  expect(mail).toBeDefined();
  expect(mail).toMatch(/filename="?[^"\r\n]*\.xlsx"?/);
  expect(mail).toContain('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
});
