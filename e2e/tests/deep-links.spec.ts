import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { consoleForThisFile } from '../support/console';
import { button } from '../support/locators';
import { logArchive } from '../support/mobatch';
import { ADMIN, signInByToken, TOKEN_KEY } from '../support/session';

// A notification opens the exact record (issue 47): a log parse's notification its parse report, and
// Fault Management's ?alarm=<id> that alarm; an id the operator has not says so, and shows nothing else.
const app = consoleForThisFile();
let workDir: string;
let archive: string;

test.use({ timezoneId: 'UTC' });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-deep-links-'));
  archive = path.join(workDir, 'mobatch_links.zip');
  fs.writeFileSync(
    archive,
    await logArchive([
      {
        node: 'LX0003',
        header: '261121-10:15:00',
        alarms: [{ time: '2026-11-21 09:00:00', severity: 'M', problem: 'Deep Link Probe', mo: 'ENodeBFunction=1', info: 'from the link e2e' }],
        ret: [['S1_L800', 30]],
      },
    ]),
  );
});
test.afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));
test.beforeEach(async ({ page }) => {
  await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
});

async function apiGet<T>(page: Page, route: string, params: Record<string, string | number>): Promise<T> {
  const token = await page.evaluate((key) => localStorage.getItem(key) ?? sessionStorage.getItem(key), TOKEN_KEY);
  const answer = await page.request.get(`${app.url}/api/${route}`, { params, headers: { authorization: `Bearer ${token}` } });
  expect(answer.status()).toBe(200);
  return (await answer.json()) as T;
}

test("the parse's notification opens its own parse report", async ({ page }) => {
  await page.goto(`${app.url}/monitoring/uploadLogs`);
  await page.locator('input[type="file"]').setInputFiles(archive);
  await button(page, 'Upload and parse').click();
  await expect(page.locator('.ant-alert-success').filter({ hasText: 'Successfully parsed 1 files.' })).toBeVisible();
  const { rows } = await apiGet<{ rows: Array<{ id: number; archives: string }> }>(page, 'Parser/GetParseHistory', { page: 1, size: 10 });
  const parseId = rows[0]!.id;

  // From another page: the bell's notification is the way back to this parse.
  await page.goto(`${app.url}/home`);
  await page.getByRole('button', { name: /Notifications \(\d+ unread\)/ }).click();
  await page
    .getByTestId('notification-list')
    .getByText(/^Successfully parsed 1 files\./)
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/monitoring/uploadLogs\\?report=${parseId}$`));
  const report = page.getByRole('dialog', { name: `Parse report #${parseId}` });
  await expect(report).toContainText('LX0003.log');
  await expect(report).toContainText('mobatch_links.zip');
});

test('?alarm=<id> opens that alarm on Fault Management, acknowledged from there; an unknown id says so', async ({ page }) => {
  await page.goto(`${app.url}/monitoring/faultManagement`);
  const { rows } = await apiGet<{ rows: Array<{ id: number; AlarmName: string; nodeName: string }> }>(page, 'Monitoring/GetFaultManagement', {
    page: 1,
    size: 10,
    filters: JSON.stringify({ AlarmName: 'Deep Link Probe' }),
  });
  expect(rows).toHaveLength(1);
  const alarm = rows[0]!;

  await page.goto(`${app.url}/monitoring/faultManagement?alarm=${alarm.id}`);
  const linked = page.getByRole('region', { name: `Alarm ${alarm.id}` });
  await expect(linked).toContainText('Deep Link Probe on LX0003');
  await expect(linked).toContainText('Severity Major');
  await expect(linked).toContainText('Not acknowledged');
  await linked.getByRole('button', { name: 'Acknowledge' }).click();
  const dialog = page.getByRole('dialog', { name: 'Acknowledge alarm' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('is required')).toBeVisible();
  await dialog.getByLabel('Note').fill('Opened from its link');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(linked).toContainText('Acknowledged by');
  await expect(linked).toContainText('Opened from its link');

  await page.goto(`${app.url}/monitoring/faultManagement?alarm=2147483000`);
  await expect(page.getByTestId('linked-alarm')).toContainText('Alarm 2147483000 is not among this operator');
  // The rest of the page is as without a link.
  await expect(page.locator('.cw-data-table').filter({ hasText: 'Alarm List' }).locator('tr.ant-table-row').first()).toBeVisible();
});
