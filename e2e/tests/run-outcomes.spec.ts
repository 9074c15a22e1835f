import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { consoleForThisFile } from '../support/console';
import { button } from '../support/locators';
import { logArchive, type NodeLog } from '../support/mobatch';
import { pickOption } from '../support/select';
import { ADMIN, signInByToken, TOKEN_KEY } from '../support/session';

// Issue 46, "outcomes told truly": the bell tells a run's outcome (specification §3: its icon and
// variant), and a run's notification opens that run's result. The demo network (LX0001…) has CPICH
// values outside the planning window on a few sites (api/src/demo/network/rnc.ts: CPICH 440 ≥ max power is an ERROR).

let workDir: string;
const shots = process.env.RUN_OUTCOMES_SHOTS;

test.use({ timezoneId: 'UTC' });
test.describe.configure({ mode: 'serial' });

const app = consoleForThisFile();
test.beforeAll(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-outcomes-e2e-'));
});
test.afterAll(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});
test.beforeEach(async ({ page }) => {
  await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
});

const bell = (page: Page) => page.getByRole('button', { name: /Notifications \(\d+ unread\)/ });
const notificationList = (page: Page) => page.getByTestId('notification-list');
/** The icon a bell row shows (antd icons name themselves): close-circle error, exclamation-circle warning, check-circle success. */
const iconOf = (row: Locator) => row.locator('[role="img"]').first().getAttribute('aria-label');

async function api<T>(page: Page, url: string): Promise<T> {
  const token = await page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY);
  const response = await page.request.get(`${app.url}/api/${url}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status()).toBe(200);
  return (await response.json()) as T;
}

test('a CPICH run that found errors is announced as an error in the bell, and its notification opens that run', async ({ page }) => {
  await page.goto(`${app.url}/validation/cpichvalidation`);
  // LX0018 and LX0003 each carry cells the demo network planned wrong.
  for (const site of ['LX0018', 'LX0003']) await pickOption(page, 'Sites', site, new RegExp(`^${site} – `));
  await page.keyboard.press('Escape');
  await button(page, 'Run Validation').click();

  const result = page.getByTestId('run-result');
  await expect(result).toContainText(/Cpich validation of LX0018, LX0003: .+\./);
  const errorTag = result.locator('.ant-tag').filter({ hasText: /^ERROR: \d+$/ });
  await expect(errorTag).toHaveCount(1);
  expect(Number((await errorTag.textContent())!.split(': ')[1])).toBeGreaterThan(0);
  const history = await api<{ rows: Array<{ id: number; sites: string }> }>(page, 'Validation/GetCpichValidationHistory?page=1&size=1');
  const runId = history.rows[0]!.id;
  expect(history.rows[0]!.sites).toBe('LX0018,LX0003');

  // Elsewhere in the console: the bell has it, as an error, and opening it comes back to that run.
  await page.goto(`${app.url}/home`);
  await expect(bell(page)).not.toHaveAccessibleName('Notifications (0 unread)');
  await bell(page).click();
  const row = notificationList(page)
    .locator('li')
    .filter({ hasText: /^Cpich validation of LX0018, LX0003: / });
  await expect(row).toHaveCount(1);
  expect(await iconOf(row)).toBe('close-circle');
  await row.click();
  await expect(page).toHaveURL(new RegExp(`/validation/cpichvalidation\\?(site=[^&]+&)?run=${runId}$`));
  // The page shows the run the address names, worst first (the page's handling of ?run=).
  const shown = page.getByTestId('run-result');
  await expect(shown).toContainText('Cpich validation of LX0018, LX0003:');
  await expect(shown.locator('tr.ant-table-row').first()).toContainText('ERROR');
});

// LX0001 answered; LX0002 did not ('Unable to connect'): the parse is stored, and its outcome is a warning.
const LOGS: NodeLog[] = [
  {
    node: 'LX0001',
    header: '261120-10:15:00',
    alarms: [{ time: '2026-11-20 08:00:00', severity: 'w', problem: 'Calendar Clock NTP Server Unavailable', mo: 'SysM=1,TimeM=1,Ntp=1', info: 'No NTP' }],
    ret: [['S1_L800', 30]],
  },
];

test('a log parse with an unreachable node is announced as a warning that names it, and opens its report', async ({ page }) => {
  const archive = path.join(workDir, 'mobatch_unreachable.zip');
  fs.writeFileSync(archive, await logArchive(LOGS, ['LX0002']));
  await page.goto(`${app.url}/monitoring/uploadLogs`);
  await page.locator('input[type="file"]').setInputFiles(archive);
  await button(page, 'Upload and parse').click();
  await expect(page.locator('.ant-alert').filter({ hasText: /Successfully parsed \d+ files?\./ })).toBeVisible();

  await page.goto(`${app.url}/home`);
  await bell(page).click();
  const row = notificationList(page)
    .locator('li')
    .filter({ hasText: /1 node unreachable \(LX0002\)/ });
  await expect(row).toHaveCount(1);
  expect(await iconOf(row)).toBe('exclamation-circle');
  // The run's error notification is still there beside it.
  expect(
    await iconOf(
      notificationList(page)
        .locator('li')
        .filter({ hasText: /^Cpich validation of LX0018, LX0003: / }),
    ),
  ).toBe('close-circle');

  if (shots) {
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: width > 800 ? 900 : 844 });
      await expect(notificationList(page)).toBeVisible();
      await page.screenshot({ path: path.join(shots, `bell-outcomes-${width}.png`) });
    }
  }

  await row.click();
  await expect(page).toHaveURL(/\/monitoring\/uploadLogs\?report=\d+$/);
  await expect(page.getByRole('dialog', { name: /^Parse report #\d+$/ })).toContainText('LX0002');
});

test('the job dashboard says what the finished runs found beside their state', async ({ page }) => {
  const token = await page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY);
  await page.goto(`${app.url}/management/jobs?access_token=${token}`);
  await expect(page.getByRole('heading', { name: 'Job Dashboard' })).toBeVisible();
  const rowOf = (label: string) => page.locator('.cw-data-table tr.ant-table-row', { has: page.locator('.cw-job-label', { hasText: label }) }).first();
  // The State column's cell (the shared table draws its header apart from its body).
  const stateOf = async (label: string) => {
    const titles = (await page.locator('.cw-data-table thead th').allInnerTexts()).map((t) => t.trim());
    return rowOf(label).locator(':scope > td').nth(titles.indexOf('State'));
  };
  await expect(await stateOf('Cpich validation')).toHaveText('SucceededErrors found');
  await expect(await stateOf('Log parsing')).toHaveText('SucceededWarnings');
  // The demo network's import found nothing wrong: its state alone (the kind filter: older jobs are on later pages).
  await page.getByRole('combobox', { name: 'Kind', exact: true }).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: /^Network dump import$/ }).click();
  await expect(await stateOf('Network dump import')).toHaveText('Succeeded');
  if (shots) {
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: path.join(shots, `jobs-outcomes-${width}.png`) });
    }
  }
});
