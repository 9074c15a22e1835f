import { expect, test, type Locator, type Page } from '@playwright/test';
import { consoleForThisFile } from '../support/console';
import { mailedLink, outboxFiles } from '../support/mail';
import { acceptCookies, ADMIN, DEMO_PASSWORD, DEMO_USERS, ENGINEERING_MENU, fillLogin, menuLabels, signIn, signInByToken } from '../support/session';

/** A real 1×1 PNG, and a JPEG's first bytes under a .png name. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]), Buffer.alloc(300, 7)]);

const OPERATOR = 'Digi Portugal';
const NEWCOMER = { email: 'nadia.nova@example.pt', firstname: 'Nádia', lastname: 'Nova', password: 'Nadia-Password-1' };

const app = consoleForThisFile();

/** Picks `option` in the antd select labelled `label` (several for a multiple select). */
async function choose(page: Page, label: string, ...options: string[]): Promise<void> {
  const dialog = page.getByRole('dialog');
  const field = page.getByLabel(label, { exact: true });
  await dialog.locator(field).click();
  for (const option of options) await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${option}"]`).click();
  // A multiple select's list stays open until Escape; a single one closes on the pick, and Escape would
  // then close the dialog.
  const multiple = (await dialog.locator('.ant-select-multiple').filter({ has: field }).count()) > 0;
  if (multiple) await page.keyboard.press('Escape');
  await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
}

const userRow = (page: Page, email: string): Locator => page.locator('tr', { has: page.getByText(email, { exact: true }) });
const card = (page: Page, name: string): Locator => page.getByRole('region', { name, exact: true });

/** Follows a side-menu link and waits for its page, so the next click lands on the new page, not the old one. */
async function openFromMenu(page: Page, label: 'Operators' | 'Users'): Promise<void> {
  await page.locator('.ant-layout-sider .ant-menu-title-content').getByText(label, { exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/management/${label.toLowerCase()}$`));
  await expect(page.getByRole('heading', { name: label, level: 3 })).toBeVisible();
}

async function confirm(page: Page, title: string, button: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.getByRole('button', { name: button }).click();
  await expect(dialog).toBeHidden();
}

/** A token for API calls made the way the console makes them. */
async function tokenOf(page: Page, email: string, password: string): Promise<string> {
  const res = await page.request.post(`${app.url}/api/auth/login`, { data: { email, password } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

test('Administrator: operator, project, user; registration, sign-in, edit, resend, deactivate, delete', async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signIn(page, app.url, ADMIN.email, ADMIN.password);

  // Operator with a picture: a JPEG under a .png name is refused by the server, a PNG shows on its card.
  await page.goto(app.url + '/management/operators');
  await page.getByRole('button', { name: 'Add' }).click();
  await page.getByRole('dialog', { name: 'Add operator' }).getByLabel('Name').fill(OPERATOR);
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('New operator created!')).toBeVisible();
  await expect(card(page, OPERATOR)).toContainText('Users0Projects0');
  await card(page, OPERATOR).getByRole('button', { name: 'Details' }).click();
  await expect(page).toHaveURL(/\/management\/operators\/details\/overview$/);
  await page.locator('input[type=file]').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: JPEG });
  await expect(page.getByText('File photo.png is not a PNG image.')).toBeVisible();
  await page.locator('input[type=file]').setInputFiles({ name: 'digi.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByText('Operator updated!')).toBeVisible();
  await expect(page.getByRole('img', { name: `${OPERATOR} picture` })).toBeVisible();

  await page.getByRole('tab', { name: 'Projects' }).click();
  await expect(page).toHaveURL(/\/details\/projects$/);
  await page.getByRole('button', { name: 'Add project' }).click();
  await page.getByRole('dialog', { name: 'Add project' }).getByLabel('Name').fill('Operations');
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('New project created!')).toBeVisible();
  await expect(page.locator('tr', { hasText: 'Operations' })).toBeVisible();

  await openFromMenu(page, 'Operators');
  await expect(card(page, OPERATOR).getByRole('img', { name: `${OPERATOR} picture` })).toBeVisible();
  await expect(card(page, OPERATOR)).toContainText('Users0Projects1');

  // The user: confirmation mail, then a resent one whose link completes the registration.
  const before = outboxFiles(app.dataDir);
  await openFromMenu(page, 'Users');
  await page.getByRole('button', { name: 'Add' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add user' });
  await dialog.getByLabel('First name').fill(NEWCOMER.firstname);
  await dialog.getByLabel('Last name').fill(NEWCOMER.lastname);
  await dialog.getByLabel('Email').fill(NEWCOMER.email);
  await choose(page, 'Role', 'CellwiseOS');
  await choose(page, 'Operators', OPERATOR);
  await choose(page, 'Projects', `Operations (${OPERATOR})`);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('New user created!')).toBeVisible();
  const row = userRow(page, NEWCOMER.email);
  await expect(row).toContainText('Email not confirmed');
  await expect(row).toContainText(OPERATOR);
  await expect(row.getByRole('button', { name: 'Deactivate' })).toHaveCount(0);
  const firstLink = await mailedLink(app.dataDir, before, NEWCOMER.email, 'completeregistration', app.url);
  const afterFirst = outboxFiles(app.dataDir);
  await row.getByRole('button', { name: 'Resend confirmation email' }).click();
  await expect(page.getByText('Confirmation email sent!')).toBeVisible();
  const link = await mailedLink(app.dataDir, afterFirst, NEWCOMER.email, 'completeregistration', app.url);
  expect(link).not.toBe(firstLink);

  const newcomerContext = await browser.newContext();
  await acceptCookies(newcomerContext, app.url);
  const newcomer = await newcomerContext.newPage();
  // The first link stopped working when the mail was resent.
  await newcomer.goto(firstLink);
  await newcomer.getByLabel('New password').fill(NEWCOMER.password);
  await newcomer.getByLabel('Repeat the password').fill(NEWCOMER.password);
  await newcomer.getByRole('button', { name: 'Complete registration' }).click();
  await expect(newcomer.getByRole('alert')).toContainText('invalid or has expired');
  await newcomer.goto(link);
  await newcomer.getByLabel('New password').fill(NEWCOMER.password);
  await newcomer.getByLabel('Repeat the password').fill(NEWCOMER.password);
  await newcomer.getByRole('button', { name: 'Complete registration' }).click();
  await expect(newcomer).toHaveURL(/\/home$/);
  await newcomer.getByRole('button', { name: 'Sign out' }).click();
  await signIn(newcomer, app.url, NEWCOMER.email, NEWCOMER.password);
  // CellwiseOS in project Operations: engineering, no management.
  expect(await menuLabels(newcomer, 6)).toEqual(['Home', ...ENGINEERING_MENU, 'Settings']);
  await expect(newcomer.locator('.ant-layout-sider').getByText(OPERATOR)).toBeVisible();

  // Edit: the email stays as it is.
  await page.reload();
  await expect(userRow(page, NEWCOMER.email)).toContainText('Email confirmed');
  await userRow(page, NEWCOMER.email).getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit user' });
  await expect(edit.getByLabel('Last name')).toHaveValue(NEWCOMER.lastname);
  await expect(edit.getByLabel('Email')).toBeDisabled();
  await edit.getByLabel('Last name').fill('Nova-Silva');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('User updated!')).toBeVisible();
  await expect(userRow(page, NEWCOMER.email)).toContainText('Nádia Nova-Silva');

  // Deactivate: the newcomer's open console signs out at once, and signing in again is refused.
  await newcomer.goto(app.url + '/tracking/tracker');
  await expect(newcomer).toHaveURL(/\/tracking\/tracker$/);
  await userRow(page, NEWCOMER.email).getByRole('button', { name: 'Deactivate' }).click();
  await confirm(page, 'Deactivate Nádia Nova-Silva?', 'Deactivate');
  await expect(page.getByText('User deactivated.')).toBeVisible();
  await expect(userRow(page, NEWCOMER.email)).toContainText('Deactivated');
  await expect(newcomer).toHaveURL(/\/auth\/login$/, { timeout: 15_000 });
  await fillLogin(newcomer, NEWCOMER.email, NEWCOMER.password);
  await expect(newcomer.getByRole('alert')).toHaveText('This account has been deactivated. Contact your administrator.');
  await newcomerContext.close();

  // Delete.
  await userRow(page, NEWCOMER.email).getByRole('button', { name: 'Delete' }).click();
  await confirm(page, 'Delete Nádia Nova-Silva?', 'Delete');
  await expect(page.getByText('User deleted.')).toBeVisible();
  await expect(userRow(page, NEWCOMER.email)).toHaveCount(0);

  // An operator that still has a project is not deleted, and the answer says why.
  await openFromMenu(page, 'Operators');
  await card(page, OPERATOR).getByRole('button', { name: 'Delete' }).click();
  await confirm(page, `Delete ${OPERATOR}?`, 'Delete');
  await expect(page.getByText(`${OPERATOR} still has 1 project. Remove them first, then delete the operator.`)).toBeVisible();
  await expect(card(page, OPERATOR)).toBeVisible();

  // The audit trail has it all.
  await openFromMenu(page, 'Users');
  await page.getByRole('tab', { name: 'Audit trail' }).click();
  for (const what of [
    'Created operator Digi Portugal',
    'Created user nadia.nova@example.pt',
    'Deactivated user nadia.nova@example.pt',
    'Deleted user nadia.nova@example.pt',
  ])
    await expect(page.getByRole('cell', { name: what })).toBeVisible();
});

test('Manager: only their operators and users, no Administrator role, 403 for another operator’s user', async ({ page }) => {
  // An Administrator adds a user of MEO, an operator the demo Manager (Vodafone PT, NOS) does not belong to.
  const adminToken = await tokenOf(page, ADMIN.email, ADMIN.password);
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const operators = (await (await page.request.get(`${app.url}/api/Users/GetOperators`, { headers: auth(adminToken) })).json()) as Array<{
    id: number;
    name: string;
  }>;
  const roles = (await (await page.request.get(`${app.url}/api/Users/GetRoles`, { headers: auth(adminToken) })).json()) as Array<{ id: number; name: string }>;
  const created = await page.request.post(`${app.url}/api/Users/CreateUser`, {
    headers: auth(adminToken),
    data: {
      firstname: 'Mário',
      lastname: 'Meo',
      email: 'mario.meo@example.pt',
      roleId: new Map(roles.map((r) => [r.name, r.id])).get('CellwiseOS'),
      operatorIds: [operators.find((o) => o.name === 'MEO')!.id],
      projectIds: [],
    },
  });
  expect(created.status()).toBe(200);
  const meoUserId = ((await created.json()) as { id: number }).id;

  await signInByToken(page, app.url, DEMO_USERS.Manager, DEMO_PASSWORD);
  await page.goto(app.url + '/management/users');
  await expect(userRow(page, DEMO_USERS.Client)).toBeVisible();
  await expect(userRow(page, 'mario.meo@example.pt')).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Audit trail' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Add' }).click();
  await page.getByRole('dialog').getByLabel('Role', { exact: true }).click();
  const offered = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  await expect(offered).toHaveText(['Manager', 'CellwiseHQ', 'CellwiseOS', 'Client']);
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').getByLabel('Operators', { exact: true }).click();
  await expect(page.locator('.ant-select-dropdown:visible .ant-select-item-option')).toHaveText(['NOS', 'Vodafone PT']);
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

  await page.goto(app.url + '/management/operators');
  await expect(page.locator('.cw-panel h5')).toHaveText(['NOS', 'Vodafone PT']);
  // Specification §6: Management, operators included, is the Manager's too — within their own operators.
  await expect(page.getByRole('button', { name: 'Add' })).toBeVisible();

  // The API refuses what the page does not offer, with the Manager's own session token.
  const managerToken = await page.evaluate(() => localStorage.getItem('vdfptAppToken') ?? '');
  const asManager = { headers: auth(managerToken) };
  expect((await page.request.get(`${app.url}/api/Users/GetUserById?userId=${meoUserId}`, asManager)).status()).toBe(403);
  expect((await page.request.post(`${app.url}/api/Users/DeactivateUser`, { ...asManager, data: { userId: meoUserId } })).status()).toBe(403);
  expect((await page.request.delete(`${app.url}/api/Users/DeleteUser`, { ...asManager, data: { userId: meoUserId } })).status()).toBe(403);
  const meo = operators.find((o) => o.name === 'MEO')!.id;
  expect((await page.request.get(`${app.url}/api/Operators/GetOperator?operatorId=${meo}`, asManager)).status()).toBe(403);
  expect((await page.request.delete(`${app.url}/api/Operators/DeleteOperator`, { ...asManager, data: { id: meo } })).status()).toBe(403);
});

/**
 * The specs run as a user who asks for less motion (playwright.config.ts): a click never lands on a dialog
 * still zooming in, where mouse-down and mouse-up can fall on different elements. Both kinds of user here.
 */
for (const [preference, zooms] of [
  ['no-preference', true],
  ['reduce', false],
] as const) {
  test(`reduced motion “${preference}”: the Add operator dialog ${zooms ? 'zooms in' : 'opens without a zoom'}`, async ({ browser }) => {
    const context = await browser.newContext({ reducedMotion: preference });
    const page = await context.newPage();
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { dialogClasses: string[] }).dialogClasses = seen;
      new MutationObserver(() => {
        for (const dialog of Array.from(document.querySelectorAll('.ant-modal'))) seen.push(dialog.className);
      }).observe(document, { attributes: true, attributeFilter: ['class'], childList: true, subtree: true });
    });
    await acceptCookies(context, app.url);
    await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
    await page.goto(app.url + '/management/operators');
    await page.getByRole('button', { name: 'Add' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add operator' });
    await expect(dialog.getByLabel('Name')).toBeVisible();
    // Seen, not only there: a dialog left at its motion's first frame would be fully transparent.
    await expect.poll(() => page.locator('.ant-modal').evaluate((modal) => getComputedStyle(modal).opacity)).toBe('1');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    const classes = (await page.evaluate(() => (window as unknown as { dialogClasses: string[] }).dialogClasses)).join(' ');
    expect(classes).toContain('ant-modal');
    if (zooms) expect(classes).toContain('ant-zoom-appear-active');
    else expect(classes).not.toMatch(/ant-zoom-appear-(start|active)/);
    await context.close();
  });
}
