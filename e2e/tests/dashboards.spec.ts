import { expect, test, type Page } from '@playwright/test';
import { FileConsole } from '../support/console';
import {
  POWERBI_EMBED_ORIGIN,
  POWERBI_REPORT_URL,
  TABLEAU_ORIGIN,
  TABLEAU_VIEW_URL,
  embedFrame,
  powerBiLog,
  routeFakeEmbedPages,
  startFakeBi,
  tableauLog,
  type FakeEmbedPages,
  type FakeBiServices,
} from '../support/fake-bi';
import { button } from '../support/locators';
import { acceptCookies, ADMIN, DEMO_PASSWORD, DEMO_USERS, signInByToken } from '../support/session';

// Rollout dashboard with both BI servers configured: Power BI's Azure AD and REST API, and Tableau's
// trusted-ticket endpoint, are a local fake the console mints its embed tokens and tickets from; the
// embed pages are faked in the browser. The real powerbi-client and tableau-api-js run in the page.

/** Embed tokens live this long: the page renews at half a short token's life, so within the test. */
const TOKEN_LIFETIME_MS = 12_000;
const ROUTE = '/dashboards/dashboardRollout';

test.describe.configure({ mode: 'serial' });

let bi: FakeBiServices;
const app = new FileConsole();
test.beforeAll(async () => {
  bi = await startFakeBi(TOKEN_LIFETIME_MS);
  await app.start({
    POWERBI_TENANT_ID: 'cellwise-e2e.onmicrosoft.com',
    POWERBI_CLIENT_ID: 'e2e-service-principal',
    POWERBI_CLIENT_SECRET: 'e2e-principal-secret',
    POWERBI_AUTHORITY_URL: bi.authorityUrl,
    POWERBI_API_URL: bi.apiUrl,
    POWERBI_EMBED_ORIGIN,
    TABLEAU_URL: TABLEAU_ORIGIN,
    TABLEAU_TICKET_URL: bi.tableauTicketUrl,
  });
});
test.afterAll(async () => {
  await app.stop();
  await bi.close();
});
test.beforeEach(async ({ context }) => {
  await acceptCookies(context, app.url);
  bi.failing = false;
});

const frameBox = (page: Page) => page.getByTestId('dashboard-frame');

/** Points the rollout dashboard (record 2) at a report, as an Administrator, through the API. */
async function setDashboard(record: { type: 'PowerBI' | 'Tableau'; name: string; url: string; serverId: string | null }): Promise<void> {
  const login = await fetch(`${app.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  const { token } = (await login.json()) as { token: string };
  const saved = await fetch(`${app.url}/api/Dashboard/Update`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ id: 2, ...record }),
  });
  expect(saved.status, await saved.text()).toBe(200);
}

/** Chooses `option` in the antd select labelled `label`. */
async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).click();
  await page.locator('.ant-select-item-option').filter({ hasText: option }).click();
}

async function openDashboard(page: Page, email: string, password: string): Promise<FakeEmbedPages> {
  const pages = await routeFakeEmbedPages(page);
  await signInByToken(page, app.url, email, password);
  await page.goto(app.url + ROUTE);
  await expect(page.getByRole('heading', { name: 'Dashboard Rollout' })).toBeVisible();
  return pages;
}

test("the console's CSP frames exactly the configured BI origins", async ({ page }) => {
  const response = await page.goto(app.url + ROUTE);
  const csp = response!.headers()['content-security-policy'] ?? '';
  const frameSrc = csp
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([name]) => name === 'frame-src');
  expect(frameSrc?.slice(1).sort()).toEqual([POWERBI_EMBED_ORIGIN, TABLEAU_ORIGIN].sort());
});

test('an Administrator points the dashboard at Power BI in Settings: it loads, goes fullscreen and gets a new token without reloading', async ({ page }) => {
  await setDashboard({ type: 'PowerBI', name: 'Dashboard Rollout', url: '', serverId: null });
  const frameNavigations: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame !== page.mainFrame() && frame.url().startsWith(POWERBI_EMBED_ORIGIN)) frameNavigations.push(frame.url());
  });
  const pages = await openDashboard(page, ADMIN.email, ADMIN.password);

  await button(page, 'Settings').click();
  const drawer = page.getByRole('dialog', { name: 'Dashboard settings' });
  await choose(page, 'Type', 'Power BI');
  await drawer.getByLabel('Name').fill('Rollout 2026 (Power BI)');
  await drawer.getByLabel('URL').fill(POWERBI_REPORT_URL);
  await choose(page, 'BI server', `Power BI (${POWERBI_EMBED_ORIGIN})`);
  await button(drawer, 'Save').click();
  await expect(page.getByText('Dashboard updated!')).toBeVisible();
  await expect(drawer).toBeHidden();

  // Loaded: the fake report answered /report/load and raised loaded; the page dropped its loading state.
  await expect(frameBox(page)).toHaveAttribute('aria-busy', 'false');
  const frame = embedFrame(page, POWERBI_EMBED_ORIGIN)!;
  await expect(frame.locator('#report')).toHaveText(/^Fake Power BI report: loaded with embed-token-\d+$/);
  const firstToken = (await frame.locator('#report').textContent())!.replace(/^.* with /, '');
  expect(bi.issued).toContain(firstToken);
  await expect(button(page, 'Export PDF')).toHaveCount(0);
  const load = (await powerBiLog(frame)).requests.find((r) => r.url === '/report/load');
  expect(load?.body).toMatchObject({ type: 'report', tokenType: 1, accessToken: firstToken, embedUrl: POWERBI_REPORT_URL });

  await button(page, 'Fullscreen').click();
  await expect.poll(() => page.evaluate(() => document.fullscreenElement?.tagName ?? null)).toBe('IFRAME');
  await page.evaluate(() => document.exitFullscreen());

  // The token is renewed in place: a new Inspect (GenerateToken) and /report/token into the same frame.
  await expect
    .poll(async () => (await powerBiLog(frame)).requests.filter((r) => r.url === '/report/token').map((r) => r.body), { timeout: 20_000 })
    .toContainEqual(expect.not.stringMatching(`^${firstToken}$`));
  const renewed = (await powerBiLog(frame)).requests.filter((r) => r.url === '/report/token').map((r) => r.body as string);
  for (const token of renewed) expect(bi.issued.indexOf(token)).toBeGreaterThan(bi.issued.indexOf(firstToken));
  expect(pages.loads.powerbi).toBe(1);
  expect(frameNavigations).toHaveLength(1);
  expect((await powerBiLog(frame)).requests.filter((r) => r.url === '/report/load')).toHaveLength(1);
});

test('the Tableau dashboard: Export PDF sends the export command to its frame, Fullscreen (by keyboard) fills the screen', async ({ page }) => {
  await setDashboard({ type: 'Tableau', name: 'Rollout 2026 (Tableau)', url: TABLEAU_VIEW_URL, serverId: 'tableau' });
  const ticketsBefore = bi.tickets.length;
  const pages = await openDashboard(page, ADMIN.email, ADMIN.password);
  await expect(frameBox(page)).toHaveAttribute('aria-busy', 'false');
  // The console asked Tableau for one ticket, for the signed-in user (TABLEAU_USER unset, default site),
  // and the view was loaded with it in the JavaScript API v2's trusted path.
  expect(bi.tickets.slice(ticketsBefore).map((t) => t.form)).toEqual([{ username: ADMIN.email }]);
  const { ticket } = bi.tickets.at(-1)!;
  expect(pages.tableauUrls).toHaveLength(1);
  // The ticket is one path segment, written as Tableau documents it (`…==:…`): only a `/` is encoded.
  const loaded = new URL(pages.tableauUrls[0]!);
  const [, trustedWord, segment, ...view] = loaded.pathname.split('/');
  expect({ origin: loaded.origin, trustedWord, ticket: decodeURIComponent(segment!), view: view.join('/') }).toEqual({
    origin: TABLEAU_ORIGIN,
    trustedWord: 'trusted',
    ticket,
    view: 'views/Rollout/Overview',
  });
  expect(segment).not.toMatch(/%3[AD]/i);
  const frame = embedFrame(page, TABLEAU_ORIGIN)!;

  await button(page, 'Export PDF').click();
  await expect
    .poll(async () =>
      (await tableauLog(frame)).commands.filter((c) => c.name === 'api.InvokeCommandCommand').map((c) => JSON.parse(c.parameters ?? '{}') as unknown),
    )
    .toEqual([{ 'api.invokeCommandName': 'showExportPDFDialog' }]);

  await button(page, 'Fullscreen').focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => page.evaluate(() => document.fullscreenElement?.getAttribute('data-testid') ?? null)).toBe('dashboard-frame');
  await page.evaluate(() => document.exitFullscreen());
});

test('a dashboard that fails to load says so with Retry, the console keeps working, and Retry recovers', async ({ page }) => {
  await setDashboard({ type: 'PowerBI', name: 'Rollout 2026 (Power BI)', url: POWERBI_REPORT_URL, serverId: 'powerbi' });
  bi.failing = true;
  const pages = await openDashboard(page, ADMIN.email, ADMIN.password);
  const failure = page.getByTestId('dashboard-failure');
  await expect(failure).toContainText('The dashboard could not be loaded');
  await expect(failure).toContainText("Power BI server 'Power BI' refused to generate an embed token (HTTP 503).");
  await expect(page).toHaveURL(new RegExp(`${ROUTE}$`));
  await expect(page.locator('.ant-layout-sider .ant-menu-root')).toBeVisible();

  bi.failing = false;
  await button(failure, 'Retry').click();
  await expect(frameBox(page)).toHaveAttribute('aria-busy', 'false');
  await expect(failure).toBeHidden();

  // The report's own error event: said the same way; Retry embeds again.
  pages.powerBiMode = 'error';
  await page.reload();
  await expect(failure).toContainText('Power BI reported an error: LoadReportFailed – The fake report refused to load');
  pages.powerBiMode = 'load';
  await button(failure, 'Retry').click();
  await expect(frameBox(page)).toHaveAttribute('aria-busy', 'false');
  await expect(failure).toBeHidden();
});

test('a user who is not an Administrator sees the dashboard but not its settings', async ({ page }) => {
  await setDashboard({ type: 'Tableau', name: 'Rollout 2026 (Tableau)', url: TABLEAU_VIEW_URL, serverId: 'tableau' });
  await openDashboard(page, DEMO_USERS.CellwiseHQ, DEMO_PASSWORD);
  await expect(frameBox(page)).toHaveAttribute('aria-busy', 'false');
  expect(bi.tickets.at(-1)!.form).toEqual({ username: DEMO_USERS.CellwiseHQ });
  await expect(button(page, 'Export PDF')).toBeEnabled();
  await expect(button(page, 'Settings')).toHaveCount(0);
});
