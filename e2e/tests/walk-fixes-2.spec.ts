import { expect, test, type Locator, type Page } from '@playwright/test';
import { consoleForThisFile } from '../support/console';
import { button } from '../support/locators';
import { ADMIN, signInByToken } from '../support/session';

/**
 * Issue 47, the walk's rough edges in the shell and management at 390 and 1440 px (items 6 and 9, the
 * top bar's site search, the job drawer): one test each, at the width the walk met it.
 */

const app = consoleForThisFile();
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const found = await locator.boundingBox();
  if (!found) throw new Error('element has no box (not rendered)');
  return found;
}

type Box = Awaited<ReturnType<typeof box>>;
const intersect = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function signedIn(page: Page, viewport: { width: number; height: number }, route: string): Promise<void> {
  await page.setViewportSize(viewport);
  await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
  await page.goto(app.url + route);
}

/** Whether a click at the middle of each control, where it is drawn now (no scrolling), would reach it. */
const reachable = (controls: Locator) =>
  controls.evaluateAll((elements) =>
    elements.map((el) => {
      const r = el.getBoundingClientRect();
      return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
    }),
  );

const pageScrollWidth = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth);

test("item 9: on the sign-in pages the cookie banner lies over the bottom, the console's own; the form is not pushed down nor hidden", async ({
  page,
  context,
}) => {
  for (const viewport of [DESKTOP, PHONE]) {
    await context.clearCookies();
    await page.setViewportSize(viewport);
    await page.goto(app.url + '/auth/login');
    const consent = page.getByRole('region', { name: 'Cookie consent' });
    await expect(consent).toBeVisible();
    // Over the bottom of the screen, not in the page's flow above the logo bar.
    const banner = await box(consent);
    expect(banner.y + banner.height).toBeCloseTo(viewport.height, 0);
    expect(await consent.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
    expect((await box(page.locator('.cw-header'))).y).toBe(0);
    // The sign-in button is in view and nothing lies over it.
    const signInButton = page.getByRole('button', { name: 'Sign in' });
    await expect(signInButton).toBeInViewport();
    expect(intersect(await box(signInButton), banner)).toBe(false);
    await signInButton.click({ trial: true });
    // The policy opens from it as on the console.
    await consent.getByRole('button', { name: 'Read the privacy policy' }).click();
    await expect(page.getByRole('dialog', { name: 'Privacy policy' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: 'Privacy policy' })).toBeHidden();
  }
  // One banner: the sign-in page's looks as the console's (same look, drawn by the same component).
  const onSignIn = await page.getByRole('region', { name: 'Cookie consent' }).evaluate((el) => el.className);
  await page.getByRole('region', { name: 'Cookie consent' }).getByRole('button', { name: 'I Agree' }).click();
  await expect(page.getByRole('region', { name: 'Cookie consent' })).toHaveCount(0);
  await context.clearCookies();
  await signedIn(page, PHONE, '/home');
  await expect(page.getByRole('region', { name: 'Cookie consent' })).toBeVisible();
  expect(await page.getByRole('region', { name: 'Cookie consent' }).evaluate((el) => el.className)).toBe(onSignIn);
});

test('the top bar at 390 px: the site search does not overlap the operator switcher, both work; at 1440 px the box shows as before', async ({ page }) => {
  await signedIn(page, PHONE, '/home');
  const switcher = page.getByTestId('operator-switcher');
  await expect(switcher).toBeVisible();
  const opener = page.getByRole('button', { name: 'Open site search' });
  await expect(opener).toBeVisible();
  expect(intersect(await box(opener), await box(switcher))).toBe(false);
  // The switcher takes a click where it is drawn.
  await switcher.click({ trial: true });
  // The search opens under the top bar, off the switcher, and finds a site.
  await opener.click();
  const search = page.getByRole('searchbox', { name: 'Search sites' });
  await expect(search).toBeFocused();
  expect(intersect(await box(search), await box(switcher))).toBe(false);
  await search.fill('LX0001');
  const found = page.getByRole('list', { name: 'Sites found' }).getByRole('link');
  await expect(found.first()).toContainText('LX0001');
  expect(await pageScrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
  await switcher.click({ trial: true });
  // Escape folds it back to its button.
  await search.press('Escape');
  await expect(search).toHaveCount(0);
  await expect(opener).toBeFocused();
  await opener.click();
  await page.getByRole('searchbox', { name: 'Search sites' }).fill('LX0001');
  await found.first().click();
  await expect(page).toHaveURL(/\/monitoring\/siteReport\?site=LX0001$/);

  await page.setViewportSize(DESKTOP);
  await page.goto(app.url + '/home');
  const wide = page.getByRole('searchbox', { name: 'Search sites' });
  await expect(wide).toBeVisible();
  await expect(page.getByRole('button', { name: 'Open site search' })).toHaveCount(0);
  expect(intersect(await box(wide), await box(page.getByTestId('operator-switcher')))).toBe(false);
});

test("the job dashboard's details at 390 px: the JSON wraps or scrolls inside the drawer, the page does not scroll sideways", async ({ page }) => {
  await signedIn(page, PHONE, '/management/jobs');
  const first = page.locator('.cw-data-table tr.ant-table-row').first();
  await expect(first).toBeVisible({ timeout: 30_000 });
  // A long value in the parameters: the walk met it in a real job's details.
  await page.route(
    (url) => url.pathname === '/api/Jobs/GetJob',
    async (route) => {
      const answer = await route.fetch();
      const body = (await answer.json()) as { params?: Record<string, unknown> };
      body.params = { ...(body.params ?? {}), file: `/data/uploads/${'x'.repeat(160)}.xlsx`, note: 'a long sentence '.repeat(12) };
      await route.fulfill({ response: answer, json: body });
    },
  );
  await first.locator('td').first().click();
  const drawer = page.getByRole('dialog').filter({ has: page.locator('pre.cw-job-json') });
  const params = drawer.locator('pre.cw-job-json').first();
  await expect(params).toBeVisible({ timeout: 30_000 });
  const drawerBox = await box(drawer);
  expect(drawerBox.x).toBeGreaterThanOrEqual(0);
  expect(drawerBox.x + drawerBox.width).toBeLessThanOrEqual(PHONE.width);
  for (const block of await drawer.locator('pre').all()) {
    const b = await box(block);
    expect(b.x + b.width).toBeLessThanOrEqual(drawerBox.x + drawerBox.width);
  }
  expect(await pageScrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
  // The drawer's body itself does not scroll sideways either.
  expect(await drawer.locator('.ant-drawer-body').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
});

test("item 6: users at 1440 px: each row's actions on one line; right after a toast the last row's actions still take a click", async ({ page }) => {
  await signedIn(page, DESKTOP, '/management/users');
  const rows = page.locator('.cw-data-table tr.ant-table-row');
  await expect(rows.first()).toBeVisible();
  // Every row's buttons on one line (Delete wrapped under 'Resend confirmation email').
  for (const row of await rows.all()) {
    const tops = await row
      .locator('td')
      .last()
      .getByRole('button')
      .evaluateAll((buttons) => buttons.map((b) => Math.round(b.getBoundingClientRect().top)));
    expect(new Set(tops).size, 'one line of buttons').toBeLessThanOrEqual(1);
  }
  // A toast from the last row itself: deactivate its user (reactivated at the end).
  const lastRow = rows.last();
  await button(lastRow, 'Deactivate').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
  const toast = page.locator('.ant-notification-notice').first();
  await expect(toast).toBeVisible();
  // The last row's actions take a click (a trial click fails when something lies over them), wherever the page was scrolled.
  const last = lastRow.locator('td').last().getByRole('button');
  for (const action of await last.all()) await action.click({ trial: true, timeout: 2_000 });
  // Scrolled to the end (where the walk met it), the toast still up: nothing lies over them where they are drawn.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(toast).toBeVisible();
  expect(await reachable(last)).not.toContain(false);
  for (const action of await last.all()) await action.click({ trial: true, timeout: 2_000 });
  await button(lastRow, 'Reactivate').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Reactivate' }).click();
  await expect(button(lastRow, 'Deactivate')).toBeVisible();
});

test("item 6: at the end of Users, three toasts in a row (the most shown at once) leave the last row's actions uncovered", async ({ page }) => {
  await signedIn(page, DESKTOP, '/management/users');
  const rows = page.locator('.cw-data-table tr.ant-table-row');
  await expect(rows.first()).toBeVisible();
  const lastRow = rows.last();
  const last = lastRow.locator('td').last().getByRole('button');
  const notices = page.locator('.ant-notification-bottomRight .ant-notification-notice');
  // Acting on the last row again while the toasts of the last acts are up (4 s each): each click must
  // reach the row's button at once, not wait for the toasts to go (two stacked toasts covered it).
  const toggle = async (action: 'Deactivate' | 'Reactivate', toastsUp: number) => {
    await button(lastRow, action).click({ timeout: 1_500 });
    await page.getByRole('dialog').getByRole('button', { name: action }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(button(lastRow, action === 'Deactivate' ? 'Reactivate' : 'Deactivate')).toBeVisible();
    await expect(notices).toHaveCount(toastsUp);
    // The stack grew past one toast's room; the page grew its room and stayed at its end (the user did
    // not scroll), so nothing lies over the actions where they are drawn.
    await expect.poll(() => reachable(last), { timeout: 1_500 }).not.toContain(false);
  };
  // Where the walk met it: the user at the page's end.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await toggle('Deactivate', 1);
  await toggle('Reactivate', 2);
  await toggle('Deactivate', 3);
  for (const action of await last.all()) await action.click({ trial: true, timeout: 1_000 });
  await toggle('Reactivate', 3);
});
