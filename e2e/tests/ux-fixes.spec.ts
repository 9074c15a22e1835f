import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { consoleForThisFile } from '../support/console';
import { PLAN_FIELDS } from '../support/workbooks';
import { ADMIN, DEMO_PASSWORD, DEMO_USERS, signIn, signInByToken } from '../support/session';

/**
 * Issue 16: the console as its users see it. One test per point that a browser has to judge (layout,
 * placement, colours, what happens during a full load); the others are component and API tests.
 */

const app = consoleForThisFile();
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const THEME_PRIMARY = 'rgb(11, 110, 121)';

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellwise-ux-'));

const sider = (page: Page) => page.locator('.ant-layout-sider');
const toasts = (page: Page) => page.locator('.ant-notification-notice');
const bell = (page: Page) => page.getByRole('button', { name: /Notifications \(\d+ unread\)/ });

async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const found = await locator.boundingBox();
  if (!found) throw new Error('element has no box (not rendered)');
  return found;
}

/** The unread count the bell announces. */
async function unread(page: Page): Promise<number> {
  const name = (await bell(page).getAttribute('aria-label')) ?? '';
  return Number(/\((\d+) unread\)/.exec(name)?.[1] ?? NaN);
}

test('1: the notification popover fits a phone screen, title and all', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signIn(page, app.url, DEMO_USERS.CellwiseOS, DEMO_PASSWORD);
  await bell(page).click();
  const popover = page.locator('.ant-popover:visible');
  await expect(popover.getByText('Notifications', { exact: true })).toBeVisible();
  // Placement settles after the first frame.
  await expect(async () => {
    const { x, width } = await box(popover);
    expect(x).toBeGreaterThanOrEqual(0);
    expect(x + width).toBeLessThanOrEqual(PHONE.width);
  }).toPass();
  const title = await box(popover.getByText('Notifications', { exact: true }));
  expect(title.x).toBeGreaterThanOrEqual(0);
});

test('2: an export runs with its progress beside the button; no full-screen overlay, the page stays usable', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
  await page.goto(app.url + '/tracking/tracker');
  await expect(page.getByRole('heading', { name: 'Tracker', level: 3 })).toBeVisible();
  // A slow server: the export's answer is held back, as on a 50,000-row export.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/Tracker/DownloadTracker', async (route) => {
    const response = await route.fetch();
    await held;
    await route.fulfill({ response });
  });
  const exportButton = page.getByRole('button', { name: /Export/ });
  const downloaded = page.waitForEvent('download');
  await exportButton.click();
  await expect(page.getByRole('status', { name: 'Export progress' })).toBeVisible();
  // Longer than the overlay's delay: it would be up by now.
  await page.waitForTimeout(1200);
  await expect(page.locator('.ant-spin-fullscreen')).toHaveCount(0);
  // The rest of the page answers meanwhile: the import dialog opens and closes.
  await page.getByRole('button', { name: /Import/ }).click();
  await expect(page.getByRole('dialog', { name: 'Import Tracker' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Import Tracker' })).toBeHidden();
  release();
  const file = await downloaded;
  expect(file.suggestedFilename()).toMatch(/^Tracker_.*\.xlsx$/);
  await expect(page.getByRole('status', { name: 'Export progress' })).toHaveCount(0);
});

/** Records the text of every toast as it appears: a toast lasts 4 s, too short to count on a busy machine. */
async function logToasts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const log: string[] = [];
    (window as unknown as { toastLog: string[] }).toastLog = log;
    const seen = new WeakSet<Element>();
    new MutationObserver(() => {
      for (const notice of Array.from(document.querySelectorAll('.ant-notification-notice'))) {
        if (seen.has(notice)) continue;
        seen.add(notice);
        log.push(notice.textContent?.trim() ?? '');
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

const toastLog = (page: Page) => page.evaluate(() => [...(window as unknown as { toastLog: string[] }).toastLog]);

test('3: one import, one toast; a refused import is shown in the dialog only', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await logToasts(page);
  await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
  await page.goto(app.url + '/tracking/commissioningplan');
  await expect(page.getByRole('heading', { name: 'Commissioning Plan', level: 3 })).toBeVisible();

  // The demo plan, exported and imported again.
  const [exported] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /Export/ }).click()]);
  const planFile = path.join(workDir, 'plan.xlsx');
  await exported.saveAs(planFile);

  const before = await unread(page);
  const logged = (await toastLog(page)).length;
  await page.getByRole('button', { name: /Import/ }).click();
  let dialog = page.getByRole('dialog', { name: 'Import Commissioning Plan' });
  await dialog.locator('input[type="file"]').setInputFiles(planFile);
  await dialog.getByRole('button', { name: /Upload/ }).click();
  // The dialog's own toast, once the call has answered (the hub may tell the bell before or after it) ...
  await expect.poll(async () => (await toastLog(page)).slice(logged), { timeout: 30_000 }).toEqual(['Commissioning Plan successfully imported!']);
  await expect(dialog).toBeHidden();
  // ... and the hub's notification of the same import reached the bell ...
  await expect(bell(page)).toHaveAccessibleName(`Notifications (${before + 1} unread)`);
  await page.waitForTimeout(1000);
  // ... without a second toast.
  expect((await toastLog(page)).slice(logged)).toEqual(['Commissioning Plan successfully imported!']);

  // A workbook with a bad date: refused, said in the dialog, not toasted on top.
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Commissioning Plan');
  sheet.addRow(PLAN_FIELDS);
  sheet.addRow(PLAN_FIELDS.map((field) => (field === 'commDate' ? 'not a date' : field === 'week' ? 10 : `${field} 1`)));
  const badFile = path.join(workDir, 'bad-plan.xlsx');
  await book.xlsx.writeFile(badFile);

  const refusedBefore = await unread(page);
  const loggedBefore = (await toastLog(page)).length;
  await page.getByRole('button', { name: /Import/ }).click();
  dialog = page.getByRole('dialog', { name: 'Import Commissioning Plan' });
  await dialog.locator('input[type="file"]').setInputFiles(badFile);
  await dialog.getByRole('button', { name: /Upload/ }).click();
  await expect(dialog.getByTestId('import-problems')).toBeVisible({ timeout: 30_000 });
  await expect(bell(page)).toHaveAccessibleName(`Notifications (${refusedBefore + 1} unread)`);
  await page.waitForTimeout(1000);
  expect((await toastLog(page)).slice(loggedBefore)).toEqual([]);
});

test('4: management and settings toasts show bottom right like every other', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page, app.url, ADMIN.email, ADMIN.password);
  const expectBottomRight = async (text: string) => {
    const toast = toasts(page).filter({ hasText: text });
    await expect(toast).toBeVisible();
    await expect(async () => {
      const { x, y, width, height } = await box(toast);
      expect(x + width).toBeGreaterThan(DESKTOP.width - 60);
      expect(y + height).toBeGreaterThan(DESKTOP.height - 160);
    }).toPass();
    await expect(page.locator('.ant-message-notice')).toHaveCount(0);
  };

  await page.goto(app.url + '/management/operators');
  await page.getByRole('region', { name: 'NOS', exact: true }).getByRole('button', { name: 'Details' }).click();
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expectBottomRight('Operator updated!');

  await page.goto(app.url + '/management/settings/general');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expectBottomRight('Profile updated!');
});

test('5: a full load shows the side menu once, complete; loading spinners are centred', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page, app.url, ADMIN.email, ADMIN.password);
  // Every state the side menu is drawn in, from the first paint on.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { menuStates: string[] }).menuStates = seen;
    new MutationObserver(() => {
      const root = document.querySelector('.ant-layout-sider .ant-menu-root');
      if (!root) return;
      const labels = Array.from(root.querySelectorAll(':scope > li'))
        .map((li) => (li.querySelector(':scope > .ant-menu-submenu-title') ?? li).textContent?.trim() ?? '')
        .join(' | ');
      if (labels !== seen[seen.length - 1]) seen.push(labels);
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  // Slow remotes: their navigation (the menu's data) and their code arrive a second and a half late.
  await page.route(/\/(navigation|mf-manifest)\.json$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.goto(app.url + '/tracking/tracker');

  const contentSpinner = page.locator('[data-remote-status="loading"] .ant-spin');
  await expect(contentSpinner).toBeVisible();
  const content = await box(page.locator('.ant-layout-content'));
  const spinner = await box(contentSpinner.locator('.ant-spin-dot').first());
  expect(Math.abs(spinner.x + spinner.width / 2 - (content.x + content.width / 2))).toBeLessThan(24);
  const menuSpinner = sider(page).locator('.ant-spin');
  await expect(menuSpinner).toBeVisible();
  const siderBox = await box(sider(page));
  const menuDot = await box(menuSpinner.locator('.ant-spin-dot').first());
  expect(Math.abs(menuDot.x + menuDot.width / 2 - (siderBox.x + siderBox.width / 2))).toBeLessThan(24);

  await expect(page.getByRole('heading', { name: 'Tracker', level: 3 })).toBeVisible();
  const states = await page.evaluate(() => (window as unknown as { menuStates: string[] }).menuStates);
  expect(states).toEqual(['Home | Planning | Tracking | Validation | Optimization | Monitoring | Dashboards | Management | Job Dashboard | Settings']);
});

test('6: a side-menu label cut short can be read whole', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page, app.url, ADMIN.email, ADMIN.password);
  for (const group of ['Validation', 'Monitoring']) await sider(page).getByText(group, { exact: true }).click();
  await expect(sider(page).getByText('Health Checks')).toBeVisible();
  await expect(sider(page).getByText('Site Report')).toBeVisible();
  const labels = await sider(page)
    .locator('.ant-menu-title-content')
    .evaluateAll((elements) =>
      elements.map((e) => ({
        text: e.textContent?.trim() ?? '',
        cut: e.scrollWidth > e.clientWidth,
        title: (e.querySelector('[title]') ?? e.closest('[title]'))?.getAttribute('title') ?? null,
      })),
    );
  const cut = labels.filter((l) => l.cut);
  // At 1440 px these two do not fit; whatever is cut must say itself in full.
  expect(cut.map((l) => l.text)).toEqual(expect.arrayContaining(['RanShare Nbr Relations Validation']));
  for (const label of cut) expect(label.title).toBe(label.text);
});

/** Controls whose middle, on screen, the cookie banner lies over (so a click there would hit the banner). */
function controlsUnderBanner(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const covered: string[] = [];
    for (const control of Array.from(document.querySelectorAll('button, a[href], input, [role="button"]'))) {
      const r = control.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) continue;
      const banner = document.elementFromPoint(x, y)?.closest('[aria-label="Cookie consent"]');
      if (banner && !banner.contains(control)) covered.push(control.textContent?.trim() || control.getAttribute('aria-label') || control.tagName);
    }
    return covered;
  });
}

const scrollToEnd = (page: Page) => page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));

// Issue 47 moved the banner over the bottom of the screen (in the page's flow it pushed every page down 56 px):
// the console starts at the top; scrolled to its end, nothing is left under the banner, and the side menu
// ends above it.
test('7: the cookie banner lies over the bottom of the screen; scrolled to the end, nothing is hidden under it', async ({ page, context }) => {
  await context.clearCookies();
  await page.setViewportSize(DESKTOP);
  await signIn(page, app.url, ADMIN.email, ADMIN.password);
  const consent = page.getByRole('region', { name: 'Cookie consent' });
  // A long page: the table's pagination reaches the bottom of the screen.
  await page.goto(app.url + '/tracking/tracker');
  await expect(page.locator('.ant-table-row').first()).toBeVisible();
  await expect(consent).toBeVisible();
  // The console starts at the top of the screen, the banner at its bottom.
  const banner = await box(consent);
  expect((await box(page.locator('.ant-layout').first())).y).toBe(0);
  expect(banner.y + banner.height).toBeCloseTo(DESKTOP.height, 0);
  await scrollToEnd(page);
  expect(await controlsUnderBanner(page)).toEqual([]);
  await expect(sider(page).getByText('Settings', { exact: true })).toBeInViewport();

  await page.setViewportSize(PHONE);
  await page.goto(app.url + '/home');
  await expect(page.getByText('Passion')).toBeVisible();
  await scrollToEnd(page);
  await expect(page.getByText('Passion')).toBeInViewport();
  expect(await controlsUnderBanner(page)).toEqual([]);

  await consent.getByRole('button', { name: 'I Agree' }).click();
  await expect(consent).toHaveCount(0);
  // The page was scrolled to its end above: its top is measured from the document, not the viewport.
  expect((await box(page.locator('.ant-layout').first())).y + (await page.evaluate(() => window.scrollY))).toBe(0);
});

test('8: the work order delta shows its Action column without scrolling at 1440 px', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
  await page.goto(app.url + '/tracking/workorderstatus');
  const header = page.locator('.ant-table-thead th', { hasText: /^Action/ });
  await expect(header).toBeVisible();
  const action = await box(header);
  const table = await box(page.locator('.ant-table-container'));
  expect(action.x + action.width).toBeLessThanOrEqual(table.x + table.width + 1);
  expect(action.x + action.width).toBeLessThanOrEqual(DESKTOP.width);
  await expect(page.locator('.ant-table-tbody tr.ant-table-row').first().locator('td').nth(3)).not.toBeEmpty();
});

test('9: operator details opened from a bookmark points back to the operator grid', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
  await page.goto(app.url + '/management/operators/details/overview');
  const back = page.getByRole('link', { name: 'Open the operators' });
  await expect(back).toBeVisible();
  await back.click();
  await expect(page).toHaveURL(/\/management\/operators$/);
  await expect(page.getByRole('heading', { name: 'Operators', level: 3 })).toBeVisible();
});

test('10: the phone drawer is dark to its top; links take the theme colour', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signIn(page, app.url, ADMIN.email, ADMIN.password);
  await page.getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.locator('.ant-drawer-content-wrapper');
  await expect(drawer.getByText('Settings', { exact: true })).toBeVisible();
  await page.waitForTimeout(400);
  const { x, y } = await box(drawer);
  // The first painted background under the drawer's top-left corner.
  const topColour = await page.evaluate(
    ([px, py]) => {
      for (let e: Element | null = document.elementFromPoint(px!, py!); e; e = e.parentElement) {
        const colour = getComputedStyle(e).backgroundColor;
        if (colour !== 'rgba(0, 0, 0, 0)' && colour !== 'transparent') return colour;
      }
      return null;
    },
    [x + 60, y + 8],
  );
  expect(topColour).not.toBe('rgb(255, 255, 255)');
  await page.keyboard.press('Escape');

  await page.setViewportSize(DESKTOP);
  await page.goto(app.url + '/management/operators');
  const details = page.getByRole('button', { name: 'Details' }).first();
  await expect(details).toBeVisible();
  expect(await details.evaluate((e) => getComputedStyle(e).color)).toBe(THEME_PRIMARY);
  await bell(page).click();
  const seeAll = page.getByRole('link', { name: 'See all' });
  await expect(seeAll).toBeVisible();
  expect(await seeAll.evaluate((e) => getComputedStyle(e).color)).toBe(THEME_PRIMARY);
});

test('14: a signed-in user meets 404 and 401 inside the console, with a way back', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signInByToken(page, app.url, DEMO_USERS.Client, DEMO_PASSWORD);
  await page.goto(app.url + '/management/settings/general');
  await expect(page.getByRole('heading', { name: 'Settings', level: 3 })).toBeVisible();

  await page.goto(app.url + '/home/no/such/page');
  await expect(page).toHaveURL(/\/errors\/error-404$/);
  await expect(page.getByText('The page you asked for does not exist.')).toBeVisible();
  await expect(sider(page).getByText('Home', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Go back' }).click();
  await expect(page).toHaveURL(/\/management\/settings\/general$/);

  await page.goto(app.url + '/management/users');
  await expect(page).toHaveURL(/\/errors\/error-401$/);
  await expect(sider(page).getByText('Settings', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Go back' }).click();
  await expect(page).toHaveURL(/\/management\/settings\/general$/);

  // Signed out, the error pages stand alone: no frame to show.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.goto(app.url + '/errors/error-404');
  await expect(page.getByRole('button', { name: 'Back home' })).toBeVisible();
  await expect(sider(page)).toHaveCount(0);
});
