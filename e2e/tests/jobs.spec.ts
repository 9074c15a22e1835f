import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { consoleForThisFile } from '../support/console';
import { PLAN_FIELDS } from '../support/workbooks';
import { ADMIN, DEMO_PASSWORD, DEMO_USERS, signIn } from '../support/session';

const PLAN_ROW: Record<string, string | number | Date> = {
  localId: 'JOB001',
  technology: '4G',
  equipCode: 'EQ-J01',
  equipName: 'Lisboa Jobs',
  supplier: 'Ericsson',
  workType: 'New site',
  commDate: new Date('2026-03-05T10:00:00Z'),
  week: 10,
  mkOwner: 'Ana Costa',
  impOwner: 'Rui Lopes',
  btsArea: 'Lisboa',
  btsTech: 'Joana Reis',
  project: 'Operations',
  comments: 'Dashboard test',
  statResponse: 'OK',
  bssTech: 'Marta Silva',
  workOrder: 'WO-J01',
  localType: 'Macro',
};

/** Where the screenshots of the dashboard go (looked at by whoever changes the page). */
const SHOTS = process.env.JOBS_SCREENSHOTS_DIR ?? path.join(os.tmpdir(), 'cellwise-jobs-dashboard');

test.use({ timezoneId: 'UTC' });
test.describe.configure({ mode: 'serial' });

const app = consoleForThisFile();
let workDir: string;

test.beforeAll(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-jobs-e2e-'));
  fs.mkdirSync(SHOTS, { recursive: true });
});
test.afterAll(() => {
  fs.rmSync(workDir, { recursive: true, force: true });
});

async function writePlan(): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Data');
  sheet.addRow(PLAN_FIELDS);
  sheet.addRow(PLAN_FIELDS.map((f) => PLAN_ROW[f] ?? null));
  const file = path.join(workDir, 'plan.xlsx');
  await workbook.xlsx.writeFile(file);
  return file;
}

const sideMenu = (page: Page) => page.locator('.ant-layout-sider .ant-menu-root');
const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('vdfptAppToken'));
/** A row of the dashboard's table by the job's label. */
const jobRow = (dashboard: Page, label: string): Locator => dashboard.locator('tr.job-row', { has: dashboard.locator('.job-label', { hasText: label }) });
const cell = (row: Locator, label: string) => row.locator(`td[data-label="${label}"]`);

test('Administrator: the menu opens the dashboard in a new tab with the token, which lists the jobs and their details', async ({ page, context }) => {
  test.setTimeout(120_000);
  await signIn(page, app.url, ADMIN.email, ADMIN.password);
  const token = await storedToken(page);
  expect(token).toBeTruthy();

  // The shell's own entry, next to Settings.
  const entry = sideMenu(page).getByRole('menuitem', { name: 'Job Dashboard' });
  await expect(entry).toBeVisible();
  const opened = context.waitForEvent('request', (r) => new URL(r.url()).pathname === '/jobs');
  const popupOpened = context.waitForEvent('page');
  await entry.click();
  const [request, dashboard] = await Promise.all([opened, popupOpened]);

  // Opened with the session token …
  expect(new URL(request.url()).searchParams.get('access_token')).toBe(token);
  // … which the page takes out of the address bar at once, and the console tab stays where it was.
  await dashboard.waitForLoadState();
  await expect(dashboard).toHaveTitle('Job Dashboard — Cellwise');
  await expect.poll(() => dashboard.url()).toBe(`${app.url}/jobs`);
  await expect(page).toHaveURL(/\/home$/);
  // A new tab without an opener: the dashboard cannot reach back into the console.
  expect(await dashboard.evaluate(() => window.opener)).toBeNull();

  // The demo networks, imported on first start by the system: one per demo operator, each named with its operator.
  await expect(jobRow(dashboard, 'Network dump import')).toHaveCount(3);
  for (const operator of ['Vodafone PT', 'NOS', 'MEO']) {
    await expect(jobRow(dashboard, 'Network dump import').filter({ has: dashboard.locator('td[data-label="Operator"]', { hasText: operator }) })).toHaveCount(
      1,
    );
  }
  const network = jobRow(dashboard, 'Network dump import').filter({ has: dashboard.locator('td[data-label="Operator"]', { hasText: 'Vodafone PT' }) });
  await expect(cell(network, 'State')).toHaveText('Succeeded', { timeout: 30_000 });
  await expect(cell(network, 'Owner')).toHaveText(/system/);
  await expect(cell(network, 'Duration')).toHaveText(/^\d+(\.\d)? (ms|s)$|min/);
  await expect(cell(network, 'Queued')).toHaveText(/^\d\d-\d\d-\d{4} \d\d:\d\d:\d\d$/);

  // A commissioning plan import in the console tab becomes a tracking import job.
  await page.goto(app.url + '/tracking/commissioningplan');
  await expect(page.getByRole('heading', { name: 'Commissioning Plan' })).toBeVisible();
  await page.getByRole('button', { name: /(^|\s)Import$/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Import Commissioning Plan' });
  await expect(dialog).toBeVisible();
  await dialog.locator('input[type="file"]').setInputFiles(await writePlan());
  await expect(dialog.getByText('plan.xlsx')).toBeVisible();
  await dialog.getByRole('button', { name: /(^|\s)Upload$/ }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });

  // A reload: the address has no token any more, the page uses the one it kept.
  await dashboard.reload();
  await expect.poll(() => dashboard.url()).toBe(`${app.url}/jobs`);
  const tracking = jobRow(dashboard, 'Tracking import').first();
  await expect(cell(tracking, 'State')).toHaveText('Succeeded', { timeout: 30_000 });
  await expect(cell(tracking, 'Duration')).toHaveText(/^\d+(\.\d)? (ms|s)$|min/);
  await expect(cell(tracking, 'Owner')).not.toHaveText(/system/);
  // Newest first: the import is above the demo network's job.
  const labels = await dashboard.locator('tr.job-row .job-label').allInnerTexts();
  expect(labels.indexOf('Tracking import')).toBeLessThan(labels.indexOf('Network dump import'));

  // Filters: by kind (options from the answer) and by state.
  await dashboard.getByLabel('Kind', { exact: true }).selectOption({ label: 'Tracking import' });
  await expect(dashboard.locator('tr.job-row .job-label')).toHaveText(['Tracking import']);
  await dashboard.getByLabel('Kind', { exact: true }).selectOption({ label: 'All kinds' });
  await dashboard.getByLabel('State', { exact: true }).selectOption('failed');
  await expect(dashboard.locator('tr.placeholder')).toHaveText('No job matches these filters.');
  await dashboard.getByLabel('State', { exact: true }).selectOption('');
  await expect(network).toBeVisible();

  await dashboard.setViewportSize({ width: 1440, height: 900 });
  await dashboard.screenshot({ path: path.join(SHOTS, 'desktop.png'), fullPage: true });

  // Details with the keyboard: Enter on a row.
  await jobRow(dashboard, 'Tracking import').first().focus();
  await dashboard.keyboard.press('Enter');
  const details = dashboard.getByRole('dialog', { name: 'Tracking import' });
  await expect(details).toBeVisible();
  await expect(details.locator('.timeline li')).toHaveCount(3);
  await expect(details.locator('.timeline')).toContainText('Created');
  await expect(details.locator('.timeline')).toContainText('Started');
  await expect(details.locator('.timeline')).toContainText('Finished');
  await expect(details.getByRole('heading', { name: 'Parameters' })).toBeVisible();
  await expect(details.getByText('Status 200')).toBeVisible();
  await expect(details.locator('pre.json').last()).toContainText('Commissioning Plan successfully imported!');
  await dashboard.screenshot({ path: path.join(SHOTS, 'desktop-details.png') });
  await dashboard.keyboard.press('Escape');
  await expect(details).toBeHidden();

  await dashboard.setViewportSize({ width: 390, height: 844 });
  await expect(network).toBeVisible();
  await dashboard.screenshot({ path: path.join(SHOTS, 'mobile.png'), fullPage: true });
  await network.getByRole('button', { name: 'Details' }).click();
  await expect(dashboard.getByRole('dialog', { name: 'Network dump import' })).toBeVisible();
  await dashboard.screenshot({ path: path.join(SHOTS, 'mobile-details.png') });
});

/** A job row as `Jobs/GetJobs` answers it (api/src/contracts/jobs.ts). */
function fakeJob(id: string, state: string, extra: Record<string, unknown> = {}) {
  const at = (seconds: number) => new Date(Date.UTC(2026, 2, 5, 10, 0, seconds)).toISOString();
  return {
    id,
    kind: 'tracking.import',
    label: 'Tracking import',
    ownerId: 1,
    owner: 'Cellwise Administrator',
    state,
    progress: state === 'succeeded' ? 100 : 0,
    progressText: null,
    createdAt: at(0),
    startedAt: state === 'queued' ? null : at(1),
    finishedAt: ['queued', 'running'].includes(state) ? null : at(3),
    durationMs: state === 'queued' ? null : 125_000,
    error: null,
    attempts: state === 'queued' ? 0 : 1,
    retryable: ['failed', 'cancelled'].includes(state),
    cancellable: state === 'queued',
    ...extra,
  };
}

test('every state as the page shows it: progress while running, Retry and Cancel after a confirmation, paging, refresh while work is under way', async ({
  page,
}) => {
  // The API's answers are made up here, so each state shows at once; the real calls are tested above and in the API's suite.
  const rows = [
    fakeJob('job-running', 'running', { progress: 45, progressText: 'Reading rows 4,500 of 10,000', durationMs: 1600 }),
    fakeJob('job-queued', 'queued', { kind: 'tracking.export', label: 'Tracking export' }),
    fakeJob('job-failed', 'failed', { error: 'Row 4: commDate is not a date (31-02-2026).' }),
    fakeJob('job-cancelled', 'cancelled', { kind: 'network.import', label: 'Network dump import', owner: null, ownerId: null }),
    fakeJob('job-succeeded', 'succeeded'),
  ];
  const listed: URL[] = [];
  const posted: Array<{ path: string; body: unknown }> = [];
  await signIn(page, app.url, ADMIN.email, ADMIN.password);
  const token = await storedToken(page);
  await page.route(
    (url) => url.pathname === '/api/Jobs/GetJobs',
    async (route) => {
      listed.push(new URL(route.request().url()));
      expect(route.request().headers().authorization).toBe(`Bearer ${token}`);
      await route.fulfill({
        json: {
          rows,
          total: 45,
          kinds: [
            { kind: 'network.import', label: 'Network dump import' },
            { kind: 'tracking.import', label: 'Tracking import' },
            { kind: 'tracking.export', label: 'Tracking export' },
          ],
        },
      });
    },
  );
  await page.route(
    (url) => url.pathname === '/api/Jobs/GetJob',
    async (route) => {
      const id = new URL(route.request().url()).searchParams.get('id');
      const job = rows.find((r) => r.id === id)!;
      await route.fulfill({
        json: {
          job,
          params: { dataSet: 'commissioningPlan', name: 'plan.xlsx' },
          outcome: job.state === 'failed' ? { status: 400, body: { message: job.error } } : null,
        },
      });
    },
  );
  for (const [path, status, message] of [
    ['/api/Jobs/CancelJob', 409, 'Only a queued job can be cancelled.'],
    ['/api/Jobs/RetryJob', 200, 'Job queued again.'],
  ] as const) {
    await page.route(
      (url) => url.pathname === path,
      async (route) => {
        posted.push({ path, body: route.request().postDataJSON() });
        await route.fulfill({ status, json: { message } });
      },
    );
  }

  await page.goto(`${app.url}/jobs?access_token=${token}`);
  const running = page.locator('tr.job-row[data-job-id="job-running"]');
  await expect(running.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '45');
  await expect(cell(running, 'Progress')).toContainText('45% · Reading rows 4,500 of 10,000');
  await expect(cell(running, 'Duration')).toHaveText('1.6 s');
  await expect(cell(page.locator('tr[data-job-id="job-failed"]'), 'Duration')).toHaveText('2 min 5 s');
  await expect(cell(page.locator('tr[data-job-id="job-failed"]'), 'Error')).toHaveText('Row 4: commDate is not a date (31-02-2026).');
  await expect(cell(page.locator('tr[data-job-id="job-cancelled"]'), 'Owner')).toHaveText('system');
  await expect(cell(running, 'Queued')).toHaveText('05-03-2026 10:00:00');
  // Actions only where the API says so.
  const buttonsOf = async (id: string) => (await page.locator(`tr[data-job-id="${id}"] .cell-actions button`).allInnerTexts()).map((t) => t.trim());
  expect(await buttonsOf('job-running')).toEqual(['Details']);
  expect(await buttonsOf('job-queued')).toEqual(['Details', 'Cancel']);
  expect(await buttonsOf('job-failed')).toEqual(['Details', 'Retry']);
  expect(await buttonsOf('job-cancelled')).toEqual(['Details', 'Retry']);
  expect(await buttonsOf('job-succeeded')).toEqual(['Details']);
  await expect(page.locator('#page-info')).toHaveText('1–20 of 45 jobs · page 1 of 3');

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: path.join(SHOTS, 'states-desktop.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(SHOTS, 'states-mobile.png'), fullPage: true });
  await page.setViewportSize({ width: 1400, height: 900 });

  // A job is running: the list asks again every 3 s without anyone touching it, and the keyboard stays
  // on the row it was on although the rows are drawn anew.
  await running.focus();
  await running.evaluate((row) => row.setAttribute('data-drawn-before', ''));
  const before = listed.length;
  await expect.poll(() => listed.length, { timeout: 8_000 }).toBeGreaterThan(before);
  await expect(page.locator('tr[data-drawn-before]')).toHaveCount(0);
  await expect(running).toBeFocused();

  // Cancel: a confirmation first; "Keep it" sends nothing, yes sends the id and shows the API's answer.
  await page.locator('tr[data-job-id="job-queued"]').getByRole('button', { name: 'Cancel' }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel job?' });
  await expect(confirm).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, 'confirm.png') });
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  await expect(confirm).toBeHidden();
  expect(posted).toEqual([]);
  await page.locator('tr[data-job-id="job-queued"]').getByRole('button', { name: 'Cancel' }).click();
  await confirm.getByRole('button', { name: 'Cancel job' }).click();
  await expect(page.getByRole('status')).toHaveText('Only a queued job can be cancelled.');
  expect(posted).toEqual([{ path: '/api/Jobs/CancelJob', body: { id: 'job-queued' } }]);

  // Retry from the details of a failed job.
  await page.locator('tr[data-job-id="job-failed"]').click();
  const details = page.getByRole('dialog', { name: 'Tracking import' });
  await expect(details.getByText('Status 400')).toBeVisible();
  await expect(details.locator('.timeline')).toContainText('Failed');
  await page.screenshot({ path: path.join(SHOTS, 'failed-details.png') });
  await details.getByRole('button', { name: 'Retry' }).click();
  await page.getByRole('dialog', { name: 'Retry job?' }).getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('status')).toHaveText('Job queued again.');
  expect(posted.at(-1)).toEqual({ path: '/api/Jobs/RetryJob', body: { id: 'job-failed' } });
  await details.getByRole('button', { name: 'Close details' }).click();
  await expect(details).toBeHidden();

  // Paging and filters go into the query.
  await page.getByRole('button', { name: 'Next' }).click();
  await expect.poll(() => listed.at(-1)?.searchParams.get('page')).toBe('2');
  expect(listed.at(-1)?.searchParams.get('size')).toBe('20');
  await page.getByLabel('State', { exact: true }).selectOption('failed');
  await expect.poll(() => listed.at(-1)?.searchParams.get('state')).toBe('failed');
  expect(listed.at(-1)?.searchParams.get('page')).toBe('1');
});

test('Manager: no menu entry, a 403 page with their token, and the page itself says so on a reload', async ({ page }) => {
  await signIn(page, app.url, DEMO_USERS.Manager, DEMO_PASSWORD);
  // The menu is complete once the remotes' groups are in.
  await expect(sideMenu(page).locator('[data-menu-group="management"]')).toBeVisible();
  await expect(sideMenu(page).getByText('Settings')).toBeVisible();
  await expect(sideMenu(page).getByText('Job Dashboard')).toHaveCount(0);

  const token = await storedToken(page);
  const response = await page.goto(`${app.url}/jobs?access_token=${token}`);
  expect(response?.status()).toBe(403);
  await expect(page.getByText('The job dashboard is for Administrators.')).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, 'forbidden.png') });
  await page.getByRole('link', { name: 'Back to the console' }).click();
  await expect(page).toHaveURL(/\/home$/);

  // Without a token in the address, the page uses the console's token and shows the API's refusal.
  await page.goto(`${app.url}/jobs`);
  await expect(page.getByRole('alert')).toContainText('The job dashboard is for Administrators.');
  await expect(page.locator('#board')).toBeHidden();
});

test('no session: a bad token or none goes to sign-in', async ({ page }) => {
  await page.goto(`${app.url}/jobs?access_token=not-a-token`);
  await expect(page).toHaveURL(/\/auth\/login$/);
  await page.goto(`${app.url}/jobs`);
  await expect(page).toHaveURL(/\/auth\/login$/);
});
