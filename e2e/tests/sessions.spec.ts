import { expect, test } from '@playwright/test';
import { consoleForThisFile } from '../support/console';
import { outboxFiles, mailedLink } from '../support/mail';
import { ADMIN, DEMO_PASSWORD, DEMO_USERS, ENGINEERING_MENU, fillLogin, MANAGEMENT_MENU, menuLabels, signIn } from '../support/session';

const app = consoleForThisFile();

/** Specification §6, role by role (demo users are in project Operations, the Client is not). */
const EXPECTED_MENUS: Array<[string, string, string, string[]]> = [
  ['Administrator', ADMIN.email, ADMIN.password, ['Home', ...ENGINEERING_MENU, ...MANAGEMENT_MENU, 'Job Dashboard', 'Settings']],
  ['Manager', DEMO_USERS.Manager, DEMO_PASSWORD, ['Home', ...ENGINEERING_MENU, ...MANAGEMENT_MENU, 'Settings']],
  ['CellwiseHQ', DEMO_USERS.CellwiseHQ, DEMO_PASSWORD, ['Home', ...ENGINEERING_MENU, 'Settings']],
  ['CellwiseOS', DEMO_USERS.CellwiseOS, DEMO_PASSWORD, ['Home', ...ENGINEERING_MENU, 'Settings']],
  ['Client', DEMO_USERS.Client, DEMO_PASSWORD, ['Home', 'Settings']],
];

test('the administrator signs in to /home with the company values, and signs out to /auth/login', async ({ page }) => {
  await page.goto(app.url + '/tracking/tracker');
  await expect(page).toHaveURL(/\/auth\/login$/);
  await fillLogin(page, ADMIN.email, ADMIN.password);
  // The guard remembered where the user wanted to go.
  await expect(page).toHaveURL(/\/tracking\/tracker$/);
  await page.goto(app.url + '/home');
  await expect(page.getByText('Customer focus', { exact: true })).toBeVisible();
  await expect(page.locator('.ant-layout-sider').getByText('Vodafone PT')).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await page.goto(app.url + '/home');
  await expect(page).toHaveURL(/\/auth\/login$/);
});

test('an expired token sends the user to the login page', async ({ page }) => {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const expired = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: 1, role: 'Administrator', exp: Math.floor(Date.now() / 1000) - 60 })}.x`;
  await page.goto(app.url + '/auth/login');
  await page.evaluate((token) => localStorage.setItem('vdfptAppToken', token), expired);
  await page.goto(app.url + '/home');
  await expect(page).toHaveURL(/\/auth\/login$/);
});

for (const [role, email, password, expected] of EXPECTED_MENUS) {
  test(`${role} sees exactly the menu of §6`, async ({ page }) => {
    await signIn(page, app.url, email, password);
    const groups = ['Planning', 'Tracking', 'Validation', 'Optimization', 'Monitoring', 'Dashboards', 'Management'].filter((g) => expected.includes(g));
    expect(await menuLabels(page, groups.length)).toEqual(expected);
  });
}

test('a CellwiseOS user opening /management/users lands on the 401 page, and the API answers 403', async ({ page }) => {
  await signIn(page, app.url, DEMO_USERS.CellwiseOS, DEMO_PASSWORD);
  await page.goto(app.url + '/management/users');
  await expect(page).toHaveURL(/\/errors\/error-401$/);
  const token = await page.evaluate(() => localStorage.getItem('vdfptAppToken'));
  const response = await page.request.get(app.url + '/api/Account/GetUserOperators?userId=1', { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status()).toBe(403);
});

test('settings: unknown tab → 404, empty tab → /home, profile save, change password rules', async ({ page }) => {
  await signIn(page, app.url, DEMO_USERS.CellwiseHQ, DEMO_PASSWORD);
  await page.goto(app.url + '/management/settings/nope');
  await expect(page).toHaveURL(/\/errors\/error-404$/);
  await page.goto(app.url + '/management/settings');
  await expect(page).toHaveURL(/\/home$/);

  await page.goto(app.url + '/management/settings/general');
  await expect(page.getByLabel('First name')).not.toHaveValue('');
  await page.getByLabel('First name').fill('');
  await page.getByLabel('First name').blur();
  await expect(page.getByText('is required')).toBeVisible();
  await page.getByLabel('First name').fill('Helena');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Profile updated!')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('First name')).toHaveValue('Helena');
  await expect(page.locator('.ant-layout-sider').getByText(/^Helena /)).toBeVisible();

  await page.getByRole('tab', { name: 'Security' }).click();
  await expect(page).toHaveURL(/\/management\/settings\/security$/);
  const save = page.getByRole('button', { name: 'Save changes' });
  await expect(save).toBeDisabled();
  await page.getByLabel('Old password').fill(DEMO_PASSWORD);
  await page.getByLabel('New password', { exact: true }).fill('Another-Secret-22');
  await page.getByLabel('Confirm new password').fill('Another-Secret-23');
  await expect(save).toBeDisabled();
  await page.getByLabel('Confirm new password').fill('Another-Secret-22');
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page.getByText('Password changed!').first()).toBeVisible();
  // The session goes on with the new token; the new password works from now on.
  await page.goto(app.url + '/home');
  await expect(page).toHaveURL(/\/home$/);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, app.url, DEMO_USERS.CellwiseHQ, 'Another-Secret-22');
});

test('recover: the mailed link sets a new password once; the old password stops working', async ({ page }) => {
  const before = outboxFiles(app.dataDir);
  await page.goto(app.url + '/auth/login');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await page.getByLabel('Email').fill(DEMO_USERS.Manager);
  await page.getByRole('button', { name: 'Send recovery link' }).click();
  await expect(page).toHaveURL(/\/auth\/resetpassword$/);
  await expect(page.getByText('Check your email')).toBeVisible();
  const target = await mailedLink(app.dataDir, before, DEMO_USERS.Manager, 'recoverconfirmation', app.url);

  await page.goto(target);
  await page.getByLabel('New password').fill('Recovered-Pass-77');
  await page.getByLabel('Repeat the password').fill('Recovered-Pass-77');
  await page.getByRole('button', { name: 'Save password and sign in' }).click();
  await expect(page).toHaveURL(/\/home$/);
  await page.getByRole('button', { name: 'Sign out' }).click();

  await fillLogin(page, DEMO_USERS.Manager, DEMO_PASSWORD);
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password.');
  await fillLogin(page, DEMO_USERS.Manager, 'Recovered-Pass-77');
  await expect(page).toHaveURL(/\/home$/);
  await page.getByRole('button', { name: 'Sign out' }).click();

  await page.goto(target);
  await page.getByLabel('New password').fill('Third-Password-99');
  await page.getByLabel('Repeat the password').fill('Third-Password-99');
  await page.getByRole('button', { name: 'Save password and sign in' }).click();
  await expect(page.getByRole('alert')).toContainText('invalid or has expired');
});

test.describe('cookie consent', () => {
  test('the banner shows until I Agree sets the cookie', async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(app.url + '/auth/login');
    const banner = page.getByRole('region', { name: 'Cookie consent' });
    await expect(banner).toBeVisible();
    await banner.getByText('Read the privacy policy').click();
    await expect(page.getByRole('dialog', { name: 'Privacy policy' })).toBeVisible();
    await page.keyboard.press('Escape');
    await banner.getByRole('button', { name: 'I Agree' }).click();
    await expect(banner).toHaveCount(0);
    await page.reload();
    await expect(page.getByLabel('Email')).toBeVisible();
    await expect(banner).toHaveCount(0);
    expect((await context.cookies()).some((c) => c.name === 'cellwise_cookie_consent')).toBe(true);
    await context.close();
  });
});

test.describe('sign-in limits', () => {
  // Its own console: a blocked address must not leak into the other tests of this file.
  const lockApp = consoleForThisFile();

  test('a wrong password shows the message and stays; after five in a row this browser must wait', async ({ page }) => {
    await page.goto(lockApp.url + '/auth/login');
    for (let attempt = 1; attempt <= 5; attempt++) {
      await fillLogin(page, DEMO_USERS.Client, 'not-the-password');
      await expect(page.getByRole('alert')).toHaveText('Invalid email or password.');
    }
    await fillLogin(page, DEMO_USERS.Client, DEMO_PASSWORD);
    await expect(page.getByRole('alert')).toContainText('Too many attempts. Try again in');
    await expect(page).toHaveURL(/\/auth\/login$/);
  });
});
