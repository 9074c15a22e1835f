import { expect, test } from '@playwright/test';
import { consoleForThisFile } from '../support/console';
import { ADMIN, signInByToken } from '../support/session';

// Site search in the top bar (issue 47): a site id or name, at most 20 sites, each opening its report.
const app = consoleForThisFile();

test('the top bar finds a site by id or name and opens its report', async ({ page }) => {
  await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
  await page.goto(`${app.url}/home`);
  const search = page.getByRole('searchbox', { name: 'Search sites' });
  await search.fill('LX00');
  const found = page.getByRole('list', { name: 'Sites found' }).getByRole('link');
  await expect(found.first()).toBeVisible();
  expect(await found.count()).toBeLessThanOrEqual(20);
  await search.fill('LX0001');
  await expect(found.first()).toContainText('LX0001');
  await found.first().click();
  await expect(page).toHaveURL(/\/monitoring\/siteReport\?site=LX0001$/);
  await expect(page.getByText(/^LX0001( – .*)?$/).first()).toBeVisible();
  // Enter opens the first site found, from any page.
  await search.fill('LX0002');
  await expect(found.first()).toContainText('LX0002');
  await search.press('Enter');
  await expect(page).toHaveURL(/\/monitoring\/siteReport\?site=LX0002$/);
});
