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

const DASHBOARD = '/management/jobs';
const sideMenu = (page: Page) => page.locator('.ant-layout-sider .ant-menu-root');
const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('vdfptAppToken'));
const table = (dashboard: Page) => dashboard.locator('.cw-data-table');
/** A row of the dashboard's table by the job's label. */
const jobRow = (dashboard: Page, label: string): Locator =>
  table(dashboard).locator('tr.ant-table-row', { has: dashboard.locator('.cw-job-label', { hasText: new RegExp(`^${label}$`) }) });
const rowById = (dashboard: Page, id: string): Locator => table(dashboard).locator(`tr.ant-table-row[data-row-key="${id}"]`);

/** A row's cell under the column titled `title` (the shared table draws its header apart from its body). */
async function cell(row: Locator, title: string): Promise<Locator> {
  // The header is read once the row is drawn (after a reload it is not there yet).
  await row.first().waitFor({ timeout: 30_000 });
  const titles = (await row.page().locator('.cw-data-table thead th').allInnerTexts()).map((t) => t.trim());
  const at = titles.indexOf(title);
  expect(at, `column ${title} among ${titles.join(', ')}`).toBeGreaterThanOrEqual(0);
  return row.locator(':scope > td').nth(at);
}

/** Picks an option of one of the page's filters (antd selects: a combobox and a list drawn apart). */
async function choose(dashboard: Page, filter: 'State' | 'Kind', option: string): Promise<void> {
  await dashboard.getByRole('combobox', { name: filter, exact: true }).click();
  await dashboard.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: new RegExp(`^${option}$`) }).click();
  await expect(dashboard.locator('.ant-select', { has: dashboard.getByRole('combobox', { name: filter, exact: true }) })).toContainText(option);
}

test('Administrator: the menu opens the dashboard in a new tab with the token, which lists the jobs and their details', async ({ page, context }) => {
  test.setTimeout(120_000);
  await signIn(page, app.url, ADMIN.email, ADMIN.password);
  const token = await storedToken(page);
  expect(token).toBeTruthy();

  // The shell's own entry, next to Settings.
  const entry = sideMenu(page).getByRole('menuitem', { name: 'Job Dashboard' });
  await expect(entry).toBeVisible();
  const opened = context.waitForEvent('request', (r) => new URL(r.url()).pathname === DASHBOARD);
  const popupOpened = context.waitForEvent('page');
  await entry.click();
  const [request, dashboard] = await Promise.all([opened, popupOpened]);

  // Opened with the session token …
  expect(new URL(request.url()).searchParams.get('access_token')).toBe(token);
  // … which the console takes out of the address bar at once; the console tab stays where it was.
  await expect(dashboard.getByRole('heading', { name: 'Job Dashboard' })).toBeVisible();
  await expect.poll(() => dashboard.url()).toBe(`${app.url}${DASHBOARD}`);
  await expect(page).toHaveURL(/\/home$/);
  // A new tab without an opener: the dashboard cannot reach back into the console.
  expect(await dashboard.evaluate(() => window.opener)).toBeNull();
  // No request after the first carries the token in its address.
  const leaked: string[] = [];
  dashboard.on('request', (r) => {
    if (r.url().includes(token!)) leaked.push(r.url());
  });

  // The demo networks, imported on first start by the system: one per demo operator, each named with its operator.
  await choose(dashboard, 'Kind', 'Network dump import');
  await expect(jobRow(dashboard, 'Network dump import')).toHaveCount(3);
  for (const operator of ['Vodafone PT', 'NOS', 'MEO']) {
    await expect(jobRow(dashboard, 'Network dump import').filter({ hasText: operator })).toHaveCount(1);
  }
  const network = jobRow(dashboard, 'Network dump import').filter({ hasText: 'Vodafone PT' });
  await expect(await cell(network, 'State')).toHaveText('Succeeded', { timeout: 30_000 });
  await expect(await cell(network, 'Owner')).toHaveText('system');
  await expect(await cell(network, 'Operator')).toHaveText('Vodafone PT');
  await expect(await cell(network, 'Duration')).toHaveText(/^\d+(\.\d)? (ms|s)$|min/);
  await expect(await cell(network, 'Queued')).toHaveText(/^\d\d-\d\d-\d{4} \d\d:\d\d:\d\d$/);
  await choose(dashboard, 'Kind', 'All kinds');

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

  // A reload: the address has no token any more, the console's session carries on.
  await dashboard.reload();
  await expect.poll(() => dashboard.url()).toBe(`${app.url}${DASHBOARD}`);
  const tracking = jobRow(dashboard, 'Tracking import').first();
  await expect(await cell(tracking, 'State')).toHaveText('Succeeded', { timeout: 30_000 });
  await expect(await cell(tracking, 'Duration')).toHaveText(/^\d+(\.\d)? (ms|s)$|min/);
  await expect(await cell(tracking, 'Owner')).not.toHaveText('system');
  // Newest first: the import is the first row.
  await expect(table(dashboard).locator('tr.ant-table-row .cw-job-label').first()).toHaveText('Tracking import');

  // Filters: by kind (options from the answer) and by state.
  await choose(dashboard, 'Kind', 'Tracking import');
  await expect(table(dashboard).locator('tr.ant-table-row .cw-job-label')).toHaveText(['Tracking import']);
  await choose(dashboard, 'Kind', 'All kinds');
  await choose(dashboard, 'State', 'Failed');
  await expect(table(dashboard)).toContainText('No job matches these filters.');
  await choose(dashboard, 'State', 'All states');
  await expect(tracking).toBeVisible();

  await dashboard.setViewportSize({ width: 1440, height: 900 });
  await dashboard.screenshot({ path: path.join(SHOTS, 'desktop.png'), fullPage: true });

  // Details with the keyboard: Enter on the row's Details button.
  await tracking.getByRole('button', { name: 'Details of Tracking import' }).focus();
  await dashboard.keyboard.press('Enter');
  const details = dashboard.getByRole('dialog', { name: 'Tracking import' });
  await expect(details).toBeVisible();
  const timeline = details.locator('.cw-job-timeline tr');
  await expect(timeline).toHaveCount(3);
  await expect(timeline.nth(0)).toContainText('Created');
  await expect(timeline.nth(1)).toContainText('Started');
  await expect(timeline.nth(2)).toContainText('Finished');
  await expect(details.getByRole('heading', { name: 'Parameters' })).toBeVisible();
  await expect(details.getByText(/^Status\s*200$/)).toBeVisible();
  await expect(details.locator('pre').last()).toContainText('Commissioning Plan successfully imported!');
  await dashboard.screenshot({ path: path.join(SHOTS, 'desktop-details.png') });
  await dashboard.keyboard.press('Escape');
  await expect(details).toBeHidden();

  await dashboard.setViewportSize({ width: 390, height: 844 });
  await expect(tracking).toBeVisible();
  await dashboard.screenshot({ path: path.join(SHOTS, 'mobile.png'), fullPage: true });
  await tracking.getByRole('button', { name: 'Details of Tracking import' }).click();
  await expect(dashboard.getByRole('dialog', { name: 'Tracking import' })).toBeVisible();
  await dashboard.screenshot({ path: path.join(SHOTS, 'mobile-details.png') });
  expect(leaked).toEqual([]);
});

/** A job row as `Jobs/GetJobs` answers it (contracts/src/jobs.ts). */
function fakeJob(id: string, state: string, extra: Record<string, unknown> = {}) {
  const at = (seconds: number) => new Date(Date.UTC(2026, 2, 5, 10, 0, seconds)).toISOString();
  return {
    id,
    kind: 'tracking.import',
    label: 'Tracking import',
    ownerId: 1,
    owner: 'Cellwise Administrator',
    operatorId: 1,
    operator: 'Vodafone PT',
    state,
    progress: state === 'succeeded' ? 100 : 0,
    progressText: null,
    createdAt: at(0),
    startedAt: state === 'queued' ? null : at(1),
    finishedAt: ['queued', 'running'].includes(state) ? null : at(3),
    durationMs: state === 'queued' ? null : 125_000,
    error: null,
    outcome: state === 'succeeded' ? 'success' : state === 'failed' ? 'error' : null,
    attempts: state === 'queued' ? 0 : 1,
    retryable: ['failed', 'cancelled'].includes(state),
    cancellable: state === 'queued',
    ...extra,
  };
}

test('every state as the page shows it: progress while running, outcome tags, Retry and Cancel after a confirmation, paging, refresh while work is under way', async ({
  page,
}) => {
  test.setTimeout(90_000);
  // The API's answers are made up here, so each state shows at once; the real calls are tested above and in the API's suite.
  const rows = [
    fakeJob('job-running', 'running', { progress: 45, progressText: 'Reading rows 4,500 of 10,000', durationMs: 1600 }),
    fakeJob('job-queued', 'queued', { kind: 'tracking.export', label: 'Tracking export' }),
    fakeJob('job-failed', 'failed', { error: 'Row 4: commDate is not a date (31-02-2026).' }),
    fakeJob('job-cancelled', 'cancelled', {
      kind: 'network.import',
      label: 'Network dump import',
      owner: null,
      ownerId: null,
      operator: null,
      operatorId: null,
    }),
    fakeJob('job-succeeded', 'succeeded'),
    fakeJob('job-errors', 'succeeded', { kind: 'validation.cpich', label: 'Cpich validation', outcome: 'error' }),
    fakeJob('job-warnings', 'succeeded', { kind: 'monitoring.parse', label: 'Log parsing', outcome: 'warning' }),
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

  await page.goto(`${app.url}${DASHBOARD}?access_token=${token}`);
  const running = rowById(page, 'job-running');
  await expect(running.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '45');
  await expect(await cell(running, 'Progress')).toContainText('45%');
  await expect(await cell(running, 'Progress')).toContainText('Reading rows 4,500 of 10,000');
  await expect(await cell(running, 'Duration')).toHaveText('1.6 s');
  await expect(await cell(rowById(page, 'job-failed'), 'Duration')).toHaveText('2 min 5 s');
  await expect(await cell(rowById(page, 'job-failed'), 'Error')).toHaveText('Row 4: commDate is not a date (31-02-2026).');
  await expect(await cell(rowById(page, 'job-cancelled'), 'Owner')).toHaveText('system');
  await expect(await cell(rowById(page, 'job-cancelled'), 'Operator')).toHaveText('—');
  await expect(await cell(running, 'Operator')).toHaveText('Vodafone PT');
  await expect(await cell(running, 'Queued')).toHaveText('05-03-2026 10:00:00');
  // What a finished run found, beside its state; a plain success and a failure carry their state alone.
  await expect(await cell(rowById(page, 'job-errors'), 'State')).toHaveText('SucceededErrors found');
  await expect(await cell(rowById(page, 'job-warnings'), 'State')).toHaveText('SucceededWarnings');
  await expect(await cell(rowById(page, 'job-succeeded'), 'State')).toHaveText('Succeeded');
  await expect(await cell(rowById(page, 'job-failed'), 'State')).toHaveText('Failed');
  // Actions only where the API says so.
  const buttonsOf = async (id: string) => (await (await cell(rowById(page, id), 'Actions')).getByRole('button').allInnerTexts()).map((t) => t.trim());
  expect(await buttonsOf('job-running')).toEqual(['Details']);
  expect(await buttonsOf('job-queued')).toEqual(['Details', 'Cancel']);
  expect(await buttonsOf('job-failed')).toEqual(['Details', 'Retry']);
  expect(await buttonsOf('job-cancelled')).toEqual(['Details', 'Retry']);
  expect(await buttonsOf('job-succeeded')).toEqual(['Details']);
  await expect(page.locator('.cw-data-table')).toContainText('1-10 of 45');

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: path.join(SHOTS, 'states-desktop.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(SHOTS, 'states-mobile.png'), fullPage: true });
  await page.setViewportSize({ width: 1400, height: 900 });

  // A job is running: the list asks again every 3 s without anyone touching it, and the keyboard stays
  // on the button it was on.
  const details = rowById(page, 'job-running').getByRole('button', { name: 'Details of Tracking import' });
  await details.focus();
  const before = listed.length;
  await expect.poll(() => listed.length, { timeout: 8_000 }).toBeGreaterThan(before);
  await expect(page.getByText('refreshing every 3 s')).toBeVisible();
  await expect(details).toBeFocused();

  // Cancel: a confirmation first; "Keep it" sends nothing, yes sends the id and shows the API's answer.
  await (await cell(rowById(page, 'job-queued'), 'Actions')).getByRole('button', { name: 'Cancel' }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel job?' });
  await expect(confirm).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, 'confirm.png') });
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  await expect(confirm).toBeHidden();
  expect(posted).toEqual([]);
  await (await cell(rowById(page, 'job-queued'), 'Actions')).getByRole('button', { name: 'Cancel' }).click();
  await confirm.getByRole('button', { name: 'Cancel job' }).click();
  await expect(page.getByText('Only a queued job can be cancelled.')).toBeVisible();
  expect(posted).toEqual([{ path: '/api/Jobs/CancelJob', body: { id: 'job-queued' } }]);

  // Retry from the details of a failed job (a click on its row opens them).
  await (await cell(rowById(page, 'job-failed'), 'Job')).click();
  const drawer = page.getByRole('dialog', { name: 'Tracking import' });
  await expect(drawer.getByText(/^Status\s*400$/)).toBeVisible();
  await expect(drawer.locator('.cw-job-timeline tr').nth(2)).toContainText('Failed');
  await page.screenshot({ path: path.join(SHOTS, 'failed-details.png') });
  await drawer.getByRole('button', { name: 'Retry' }).click();
  await page.getByRole('dialog', { name: 'Retry job?' }).getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByText('Job queued again.')).toBeVisible();
  expect(posted.at(-1)).toEqual({ path: '/api/Jobs/RetryJob', body: { id: 'job-failed' } });
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(drawer).toBeHidden();

  // Paging and filters go into the query.
  await page.locator('.cw-data-table').getByRole('button', { name: /next/i }).first().click();
  await expect.poll(() => listed.at(-1)?.searchParams.get('page')).toBe('2');
  expect(listed.at(-1)?.searchParams.get('size')).toBe('10');
  await choose(page, 'State', 'Failed');
  await expect.poll(() => listed.at(-1)?.searchParams.get('state')).toBe('failed');
  expect(listed.at(-1)?.searchParams.get('page')).toBe('1');
});

test('Manager: no menu entry, and the page with their token is the 401 page, as any page their role may not open', async ({ page }) => {
  await signIn(page, app.url, DEMO_USERS.Manager, DEMO_PASSWORD);
  // The menu is complete once the remotes' groups are in.
  await expect(sideMenu(page).locator('[data-menu-group="management"]')).toBeVisible();
  await expect(sideMenu(page).getByText('Settings')).toBeVisible();
  await expect(sideMenu(page).getByText('Job Dashboard')).toHaveCount(0);

  const token = await storedToken(page);
  const jobCalls: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/Jobs/')) jobCalls.push(r.url());
  });
  await page.goto(`${app.url}${DASHBOARD}?access_token=${token}`);
  await expect(page).toHaveURL(/\/errors\/error-401$/);
  await page.screenshot({ path: path.join(SHOTS, 'forbidden.png') });
  expect(jobCalls).toEqual([]);
  // And the API refuses the page's calls to them anyway.
  const answer = await page.request.get(`${app.url}/api/Jobs/GetJobs`, { headers: { authorization: `Bearer ${token}` } });
  expect(answer.status()).toBe(403);
});

test('no session: a bad token or none goes to sign-in', async ({ page }) => {
  await page.goto(`${app.url}${DASHBOARD}?access_token=not-a-token`);
  await expect(page).toHaveURL(/\/auth\/login$/);
  await page.goto(`${app.url}${DASHBOARD}`);
  await expect(page).toHaveURL(/\/auth\/login$/);
});
