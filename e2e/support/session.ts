import { expect, type BrowserContext, type Page } from '@playwright/test';

/** Seeded on first start (api/src/seed): the administrator and one demo user per other role. */
export const ADMIN = { email: 'admin@cellwise.local', password: 'Cellwise-Admin-1' };
export const DEMO_PASSWORD = 'Cellwise-Demo-1';
export const DEMO_USERS = {
  Manager: 'manager@cellwise.local',
  CellwiseHQ: 'hq@cellwise.local',
  CellwiseOS: 'os@cellwise.local',
  Client: 'client@cellwise.local',
} as const;

/** The side menu of engineering roles in project Operations (specification §6), in order. */
export const ENGINEERING_MENU = [
  'Planning',
  'Parameter Planning',
  'Tracking',
  'Commissioning Plan',
  'Tracker',
  'Work Order Status',
  'Validation',
  'Cpich Validation',
  'Nbr Relations Validation',
  'RanShare Nbr Relations Validation',
  'Health Checks',
  'Optimization',
  'Nbr Relations Optimization',
  'Monitoring',
  'Upload Logs',
  'Fault Management',
  'Configuration Management',
  'Overall Site Summary',
  'Site Report',
  'Dashboards',
  'Dashboard Rollout',
];
export const MANAGEMENT_MENU = ['Management', 'Operators', 'Users'];

export async function fillLogin(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in through the login page and waits for the console. */
export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(baseUrl + '/auth/login');
  await fillLogin(page, email, password);
  await expect(page).toHaveURL(/\/home$/);
  // Sign-in hands over to the console by a full page load: the URL reads /home as soon as that load
  // starts, so wait for the console itself before the caller touches the page.
  await expect(page.locator('[data-shell-store-instance]')).toBeAttached();
}

/** Where the console reads its session token (shared-auth/src/handoff.ts, specification §9). */
export const TOKEN_KEY = 'vdfptAppToken';

/**
 * Signs in for a test whose subject is not signing in: the login call the login page makes, and its
 * token stored where the console reads it. The test's own first `page.goto` is then the console's first
 * load. The login page and the hand-over to /home (`signIn`) cost 1.3-1.8 s a test and are tested by
 * sessions.spec.ts and ux-fixes.spec.ts.
 */
export async function signInByToken(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  const answer = await page.request.post(`${baseUrl}/api/auth/login`, { data: { email, password } });
  expect(answer.status(), `sign-in of ${email}`).toBe(200);
  const { token } = (await answer.json()) as { token: string };
  // Storage belongs to an origin: a small document of the console's own (no page code runs) opens it.
  await page.goto(`${baseUrl}/config/remotes.json`);
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [TOKEN_KEY, token] as const);
}

/** The labels of the side menu: groups and their entries, as a user sees them once every group is unfolded. */
export async function menuLabels(page: Page, expectedGroups: number): Promise<string[]> {
  const nav = page.locator('.ant-layout-sider .ant-menu-root');
  await expect(nav).toBeVisible();
  // The menu fills in as the remotes' manifests arrive after sign-in.
  await expect(nav.locator('[data-menu-group]')).toHaveCount(expectedGroups);
  const submenus = nav.locator(':scope > .ant-menu-submenu');
  for (let i = 0; i < (await submenus.count()); i++) {
    const submenu = submenus.nth(i);
    if (!(await submenu.getAttribute('class'))?.includes('ant-menu-submenu-open')) await submenu.locator('.ant-menu-submenu-title').click();
    await expect(submenu.locator('.ant-menu-sub')).toBeVisible();
  }
  return (await nav.locator('.ant-menu-title-content').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
}

/** Most tests agree to cookies up front, so the consent banner never covers a button they click. */
export async function acceptCookies(context: BrowserContext, baseUrl: string): Promise<void> {
  await context.addCookies([{ name: 'cellwise_cookie_consent', value: '1', url: baseUrl }]);
}
