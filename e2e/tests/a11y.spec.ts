import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { consoleForThisFile } from '../support/console';
import { button } from '../support/locators';
import { ADMIN, signInByToken } from '../support/session';

/**
 * Issue 47, accessibility: every route passes axe-core's WCAG 2.1 A/AA rules with no serious or critical
 * violation, as an Administrator at desktop width; and the keyboard reaches every action, shows where it
 * is, and dialogs keep focus inside and give it back.
 */

const app = consoleForThisFile();
const DESKTOP = { width: 1440, height: 900 };

/** The signed-in routes of specification §2 an Administrator opens (the error pages and redirects aside). */
const ROUTES = [
  '/home',
  '/planning/parameterplanning',
  '/tracking/commissioningplan',
  '/tracking/tracker',
  '/tracking/workorderstatus',
  '/validation/cpichvalidation',
  '/validation/nbrRelationsValidation',
  '/validation/ranshareNbrRelationsValidation',
  '/validation/healthChecks',
  '/optimization/nbrRelationsOptimization',
  '/monitoring/uploadLogs',
  '/monitoring/faultManagement',
  '/monitoring/configurationManagement',
  '/monitoring/overallSiteSummary',
  '/monitoring/siteReport',
  '/dashboards/dashboardRollout',
  '/management/operators',
  '/management/users',
  '/management/jobs',
  '/management/settings/general',
  '/management/settings/security',
  '/notifications',
];

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

/** Waits until the page has drawn its data: no spinner, no skeleton, and the fonts in. */
async function settled(page: Page): Promise<void> {
  await expect(page.locator('main h3, main h1, main h2').first()).toBeVisible();
  await expect(page.locator('.ant-spin-spinning, .ant-skeleton-active')).toHaveCount(0, { timeout: 20_000 });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

/** The serious and critical violations of the WCAG 2.1 A/AA rules on the page, each with the elements at fault. */
async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the browser's debugging protocol: the console's CSP (rightly) refuses an inline script tag.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations;
  }, WCAG_TAGS);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}) on ${v.nodes.length}: ${v.nodes
          .slice(0, 3)
          .map((n) => JSON.stringify(n.target))
          .join(', ')}`,
    );
}

test.describe('axe-core on every route, Administrator, 1440', () => {
  for (const route of ROUTES) {
    test(`${route}: no serious or critical WCAG 2.1 A/AA violation`, async ({ page }) => {
      await page.setViewportSize(DESKTOP);
      await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
      await page.goto(app.url + route);
      await settled(page);
      expect(await seriousViolations(page)).toEqual([]);
    });
  }

  test('an open table filter and the user dialog: no serious or critical violation', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
    await page.goto(app.url + '/management/users');
    await settled(page);
    await page.getByRole('button', { name: 'Filter Email' }).click();
    await expect(page.getByRole('textbox', { name: 'Filter Email' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    // The specification's 'Add button that opens an Add user ... dialog'.
    await button(page, 'Add').click();
    await expect(page.getByRole('dialog', { name: 'Add user' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});

test.describe('keyboard', () => {
  test('a table is sorted, filtered and paged with Tab and Enter alone, and the focus is always visible', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
    await page.goto(app.url + '/tracking/commissioningplan');
    await settled(page);
    const sortLocalId = page.getByRole('button', { name: /^Sort by Local Id/ });
    await sortLocalId.focus();
    await expectFocusVisible(page);
    await page.keyboard.press('Enter');
    await expect(page.locator('th[aria-sort]').first()).toHaveAttribute('aria-sort', 'ascending');
    const filter = page.getByRole('button', { name: 'Filter Local Id' });
    await filter.focus();
    await expectFocusVisible(page);
    await page.keyboard.press('Enter');
    const input = page.getByRole('textbox', { name: 'Filter Local Id' });
    await expect(input).toBeFocused();
    await input.fill('zz-none');
    await page.keyboard.press('Enter');
    await expect(page.getByText('No rows match the filters.')).toBeVisible();
    // The filter's panel gave the focus back to its button.
    await expect(filter).toBeFocused();
  });

  test('a dialog keeps Tab inside and gives the focus back to the button that opened it', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signInByToken(page, app.url, ADMIN.email, ADMIN.password);
    await page.goto(app.url + '/tracking/tracker');
    await settled(page);
    const opener = page.getByRole('button', { name: /Import$/ });
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Import Tracker' });
    await expect(dialog).toBeVisible();
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')))).toBe(true);
      await expectFocusVisible(page);
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
  });
});

/** The focused element shows it: an outline or a focus ring (box-shadow) that is not there without focus. */
async function expectFocusVisible(page: Page): Promise<void> {
  const ring = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'nothing focused';
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const shadow = style.boxShadow !== 'none';
    return outline || shadow
      ? 'visible'
      : `no focus ring on ${el.tagName.toLowerCase()} ${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 30) ?? ''}`;
  });
  expect(ring).toBe('visible');
}
