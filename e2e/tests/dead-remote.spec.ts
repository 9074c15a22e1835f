import path from 'node:path';
import { expect, test } from '@playwright/test';
import { REPO_ROOT, serveDirectory, startConsole, type RunningConsole, type StaticServer } from '../support/console';
import { acceptCookies, ADMIN, signInByToken } from '../support/session';

let trackingHost: StaticServer;
let consoleApp: RunningConsole;

test.beforeAll(async () => {
  // Tracking is deployed on its own origin, named only by the runtime config: we can take it down alone.
  trackingHost = await serveDirectory(path.join(REPO_ROOT, 'mfe-tracking/dist'));
  consoleApp = await startConsole({ REMOTE_TRACKING_URL: `${trackingHost.origin}/mf-manifest.json` });
});
test.afterAll(async () => {
  await consoleApp.stop();
  await trackingHost.close().catch(() => undefined);
});
test.beforeEach(async ({ context }) => {
  await acceptCookies(context, consoleApp.url);
});

test('a dead remote never takes the shell down, and Retry recovers it when it is back', async ({ page }) => {
  const runtimeConfig = await (await page.request.get(consoleApp.url + '/config/remotes.json')).json();
  expect(runtimeConfig.remotes[0].entry).toBe(`${trackingHost.origin}/mf-manifest.json`);

  await signInByToken(page, consoleApp.url, ADMIN.email, ADMIN.password);
  // Served from its own origin, the remote works.
  await page.goto(consoleApp.url + '/tracking/tracker');
  await expect(page.getByRole('heading', { name: 'Tracker', exact: true })).toBeVisible();

  await trackingHost.close();
  await page.goto(consoleApp.url + '/home');
  await expect(page.getByRole('heading', { name: 'Welcome to Cellwise' })).toBeVisible();
  await expect(page.locator('[data-menu-group="tracking"][data-unavailable="true"]')).toBeVisible();

  await page.goto(consoleApp.url + '/tracking/commissioningplan');
  await expect(page.getByText('This area is unavailable')).toBeVisible();

  // Every other area keeps working.
  await page.getByRole('menuitem', { name: 'Monitoring' }).click();
  await page.getByRole('link', { name: 'Upload Logs', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Upload Logs', exact: true })).toBeVisible();
  await page.goto(consoleApp.url + '/management/operators');
  await expect(page.getByRole('heading', { name: 'Operators', exact: true })).toBeVisible();

  await page.getByRole('menuitem', { name: 'Home' }).click();
  await page.goto(consoleApp.url + '/tracking/commissioningplan');
  await expect(page.getByText('This area is unavailable')).toBeVisible();
  await trackingHost.reopen();
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { name: 'Commissioning Plan', exact: true })).toBeVisible();
  await expect(page.locator('[data-menu-group="tracking"][data-unavailable="true"]')).toHaveCount(0);
});
