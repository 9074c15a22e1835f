import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { consoleForThisFile } from '../support/console';
import { outboxFiles } from '../support/mail';
import { ADMIN, signInByToken, TOKEN_KEY } from '../support/session';

// Reports to a list, on a schedule (issue 47): the site report mailed to several users of the operator
// with a summary in the body; a project's daily digest, sent now, is a job on the job dashboard.
const app = consoleForThisFile();

const freshMails = (before: Set<string>) => {
  const outbox = path.join(app.dataDir, 'outbox');
  return fs.existsSync(outbox)
    ? fs
        .readdirSync(outbox)
        .filter((f) => !before.has(f) && f.endsWith('.eml'))
        .map((f) => fs.readFileSync(path.join(outbox, f), 'utf8'))
    : [];
};

test('Email Report goes to several users, each mail with the site status and alarm counts', async ({ page }) => {
  await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
  await page.goto(`${app.url}/monitoring/siteReport?siteId=LX0001`);
  await page.getByRole('button', { name: 'Email Report' }).click();
  const dialog = page.getByRole('dialog', { name: 'Email the report of LX0001' });
  const select = dialog.getByRole('combobox');
  await select.click();
  // The caller is chosen to start with (the specification's report goes to them): two more users make a list.
  const others = page.locator('.ant-select-item-option:not(.ant-select-item-option-selected)');
  await expect(others.first()).toBeVisible();
  const picked = (await others.allTextContents()).slice(0, 2);
  for (const option of picked) await page.locator('.ant-select-item-option').filter({ hasText: option }).first().click();
  await page.keyboard.press('Escape');
  const before = outboxFiles(app.dataDir);
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Report sent to 3 recipients.')).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => freshMails(before).length).toBe(3);
  for (const mail of freshMails(before)) {
    expect(mail).toContain('Subject: Cellwise site report LX0001');
    expect(mail.replace(/=\r?\n/g, '')).toMatch(/overall status (OK|NOK|N\/A|Incomplete log)/);
    expect(mail.replace(/=\r?\n/g, '')).toMatch(/Alarms: \d+ Critical, \d+ Major, \d+ Minor, \d+ Warning/);
  }
});

test("an Administrator schedules a project's daily digest; sent now, it is a job on the job dashboard and a mail", async ({ page }) => {
  await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
  await page.goto(`${app.url}/monitoring/siteReport?siteId=LX0001`);
  await page.getByRole('button', { name: 'Daily digest' }).click();
  const dialog = page.getByRole('dialog', { name: 'Daily site-status digest' });
  const row = dialog.locator('tr').filter({ hasText: 'Operations' });
  await row.getByRole('combobox', { name: "Recipients of Operations's digest" }).click();
  await page.locator('.ant-select-item-option').first().click();
  await page.keyboard.press('Escape');
  await row.getByRole('button', { name: 'Schedule' }).click();
  await expect(page.getByText(/^Daily digest of Operations scheduled at 07:00 UTC\.$/)).toBeVisible();
  const before = outboxFiles(app.dataDir);
  await row.getByRole('button', { name: 'Send now' }).click();
  await expect(page.getByText('The digest is being sent.')).toBeVisible();
  await expect.poll(() => freshMails(before).some((m) => m.includes('Daily site-status digest'))).toBe(true);

  const token = await page.evaluate((key) => localStorage.getItem(key) ?? sessionStorage.getItem(key), TOKEN_KEY);
  const jobs = await page.request.get(`${app.url}/api/Jobs/GetJobs?kind=monitoring.digest`, { headers: { authorization: `Bearer ${token}` } });
  expect(jobs.status()).toBe(200);
  expect(await jobs.text()).toContain('Site-status digest');
  // The dashboard page itself lists it.
  await page.goto(`${app.url}/management/jobs?access_token=${encodeURIComponent(token ?? '')}`);
  await expect(page.getByText('Site-status digest').first()).toBeVisible();
});
