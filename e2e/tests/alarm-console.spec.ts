import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { consoleForThisFile } from '../support/console';
import { button } from '../support/locators';
import { logArchive } from '../support/mobatch';
import { ADMIN, signInByToken } from '../support/session';

// The live alarm console (issue 47): a parse in another browser updates the counters with no reload;
// several alarms are acknowledged with one note; what changed since the last upload is listed.
const app = consoleForThisFile();
const CRITICAL = { time: '2026-11-21 09:00:00', severity: 'C' as const, problem: 'Heartbeat Failure', mo: 'ManagedElement=1', info: 'node lost' };
let archive: string;
test.beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-alarm-console-'));
  archive = path.join(dir, 'mobatch.zip');
  // LX0001's new log: one Critical alarm more than the demo log of it, which said nothing Critical.
  fs.writeFileSync(archive, await logArchive([{ node: 'LX0001', header: '261121-10:15:00', alarms: [CRITICAL], ret: [['S1_L800', 30]] }]));
});

const counter = (page: Page, label: string) => page.getByRole('group', { name: 'Alarm counters' }).locator(`[data-counter="${label}"]`);
const countOf = async (page: Page, label: string) => Number(/\d+/.exec((await counter(page, label).textContent()) ?? '')?.[0] ?? NaN);

test('a parse in another browser updates the counters live; a counter filters the list; several alarms take one note', async ({ browser }) => {
  const watcher = await browser.newContext();
  const uploader = await browser.newContext();
  const watching = await watcher.newPage();
  const uploading = await uploader.newPage();
  await signInByToken(watching, app.url, ADMIN.email, ADMIN.password);
  await signInByToken(uploading, app.url, ADMIN.email, ADMIN.password);

  await watching.goto(`${app.url}/monitoring/faultManagement`);
  await expect(counter(watching, 'Critical')).toBeVisible();
  const before = await countOf(watching, 'Critical');

  await uploading.goto(`${app.url}/monitoring/uploadLogs`);
  await uploading.locator('input[type="file"]').setInputFiles(archive);
  await button(uploading, 'Upload and parse').click();
  await expect(uploading.locator('.ant-alert-success')).toBeVisible();

  // No reload in the watching browser: the hub's AlarmsChanged brings the new count.
  await expect.poll(() => countOf(watching, 'Critical'), { timeout: 20_000 }).toBe(before + 1);
  await expect(watching.getByText(/Since the last upload: [1-9]\d* new/)).toBeVisible();
  await watching.getByRole('button', { name: 'Show changes' }).click();
  const changes = watching.locator('.cw-data-table').filter({ hasText: 'Since the last upload' });
  await expect(changes.locator('tr.ant-table-row').filter({ hasText: 'Heartbeat Failure' })).toContainText('New since last upload');

  // The Critical counter filters the list by it.
  await counter(watching, 'Critical').click();
  await expect(counter(watching, 'Critical')).toHaveAttribute('aria-pressed', 'true');
  const alarms = watching.locator('.cw-data-table').filter({ hasText: 'Alarm List' });
  await expect(alarms.locator('tr.ant-table-row').first()).toContainText('Heartbeat Failure');
  await counter(watching, 'Critical').click();

  // Two alarms, one note.
  const acknowledgedBefore = await countOf(watching, 'Acknowledged');
  const boxes = alarms.getByRole('checkbox');
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  await watching.getByRole('button', { name: 'Acknowledge selected (2)' }).click();
  const dialog = watching.getByRole('dialog', { name: 'Acknowledge 2 alarms' });
  await dialog.getByLabel('Note').fill('One visit for both');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(watching.getByText('2 alarms acknowledged.')).toBeVisible();
  await expect.poll(() => countOf(watching, 'Acknowledged')).toBe(acknowledgedBefore + 2);
  // The other browser's console follows the acknowledgement too.
  await uploading.goto(`${app.url}/monitoring/faultManagement`);
  await expect.poll(() => countOf(uploading, 'Acknowledged')).toBe(acknowledgedBefore + 2);
  await watcher.close();
  await uploader.close();
});
