import { expect, type Page } from '@playwright/test';

/** Seeded on first start (api/src/seed): the administrator and one demo user per other role. */
export const ADMIN = { email: 'admin@cellwise.local', password: 'Cellwise-Admin-1' };
export const DEMO_PASSWORD = 'Cellwise-Demo-1';
export const DEMO_USERS = {
  Manager: 'manager@cellwise.local',
  CellwiseHQ: 'hq@cellwise.local',
  CellwiseOS: 'os@cellwise.local',
  Client: 'client@cellwise.local',
} as const;

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
}

/** The labels of the side menu: groups and their entries, as a user sees them. */
export async function menuLabels(page: Page): Promise<string[]> {
  const nav = page.locator('.ant-layout-sider .ant-menu');
  // Open every group so its entries are in the DOM.
  const groups = nav.locator('.ant-menu-submenu-title');
  for (let i = 0; i < (await groups.count()); i++) {
    const submenu = groups.nth(i).locator('xpath=..');
    if (!(await submenu.getAttribute('class'))?.includes('ant-menu-submenu-open')) await groups.nth(i).click();
  }
  return (await nav.locator('.ant-menu-title-content').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
}

/** Most tests agree to cookies up front, so the consent banner never covers a button they click. */
export async function acceptCookies(context: import('@playwright/test').BrowserContext, baseUrl: string): Promise<void> {
  await context.addCookies([{ name: 'cellwise_cookie_consent', value: '1', url: baseUrl }]);
}
