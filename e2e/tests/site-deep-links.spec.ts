import { expect, test, type Page } from '@playwright/test';
import { consoleForThisFile } from '../support/console';
import { ADMIN, signInByToken } from '../support/session';

// The pages run for a site pick it up from the address (issue 47): `?site=` selects it, a new choice is
// written back in place, and the site report's links carry it over.
const app = consoleForThisFile();

/** The page's site picker: 'Sites' where several sites go in one run, 'Site' where one does. */
const picker = (page: Page, label: 'Site' | 'Sites') => page.locator('.ant-select').filter({ has: page.getByRole('combobox', { name: label, exact: true }) });

const PAGES = [
  { path: '/planning/parameterplanning', label: 'Sites', run: 'Run Parameter Planning' },
  { path: '/validation/nbrRelationsValidation', label: 'Site', run: null },
  { path: '/validation/healthChecks', label: 'Site', run: 'Get Health Checks' },
] as const;

test.beforeEach(async ({ page }) => {
  await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
});

for (const { path, label, run } of PAGES) {
  test(`${path}?site=LX0001 opens with LX0001 chosen; another choice replaces ?site= in place`, async ({ page }) => {
    await page.goto(`${app.url}${path}?site=LX0001`);
    await expect(picker(page, label)).toContainText('LX0001');
    if (run) await expect(page.getByRole('button', { name: run })).toBeEnabled();
    const steps = await page.evaluate(() => history.length);

    await picker(page, label).click();
    const input = page.getByRole('combobox', { name: label, exact: true });
    if (label === 'Sites') {
      // Several sites: the second joins the first.
      await input.fill('LX0002');
      await page.locator('.ant-select-item-option', { hasText: 'LX0002' }).first().click();
      await expect(page).toHaveURL(new RegExp(`${path}\\?site=LX0001%2CLX0002$`));
    } else {
      await input.fill('LX0002');
      await page.locator('.ant-select-item-option', { hasText: 'LX0002' }).first().click();
      await expect(page).toHaveURL(new RegExp(`${path}\\?site=LX0002$`));
      await expect(picker(page, label)).toContainText('LX0002');
    }
    expect(await page.evaluate(() => history.length)).toBe(steps);

    // The link as it stands now opens the same choice.
    await page.reload();
    await expect(picker(page, label)).toContainText('LX0002');
  });
}

test('a site that is not one of the operator’s is said so and nothing is chosen', async ({ page }) => {
  await page.goto(`${app.url}/validation/healthChecks?site=ZZ9999`);
  await expect(page.getByTestId('site-param-notice')).toHaveText("Site ZZ9999 is not among the current operator's sites for this page, so it is not selected.");
  await expect(picker(page, 'Site')).not.toContainText('ZZ9999');
  await expect(page.getByRole('button', { name: 'Get Health Checks' })).toBeDisabled();
});

test('the site report leads to planning, neighbour validation and health checks with its site kept', async ({ page }) => {
  await page.goto(`${app.url}/monitoring/siteReport?site=LX0001`);
  const elsewhere = page.getByRole('navigation', { name: 'This site elsewhere' });
  await elsewhere.getByRole('link', { name: 'Plan parameters' }).click();
  await expect(page).toHaveURL(/\/planning\/parameterplanning\?site=LX0001$/);
  await expect(picker(page, 'Sites')).toContainText('LX0001');

  await page.goBack();
  await elsewhere.getByRole('link', { name: 'Health check' }).click();
  await expect(page).toHaveURL(/\/validation\/healthChecks\?site=LX0001$/);
  await expect(picker(page, 'Site')).toContainText('LX0001');

  await page.goBack();
  await elsewhere.getByRole('link', { name: 'Validate neighbours' }).click();
  await expect(page).toHaveURL(/\/validation\/nbrRelationsValidation\?site=LX0001$/);
  await expect(picker(page, 'Site')).toContainText('LX0001');
});
