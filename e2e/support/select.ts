import { expect, type Page } from '@playwright/test';

/**
 * Types into a server-searched select (its options are the server's answer to the typed text) and picks
 * the first option matching `option`, then checks it was picked. An option clicked while the answer to an
 * earlier text replaced the list selects nothing (CI runs waited a minute on a disabled button), so a
 * pick that did not take is typed and clicked again. Answers the picked option's text.
 */
export async function pickOption(page: Page, label: string, typed: string, option: RegExp): Promise<string> {
  const combobox = page.getByRole('combobox', { name: label });
  const select = page.locator('.ant-select').filter({ has: combobox });
  let picked = '';
  await expect(async () => {
    await combobox.fill(typed);
    const choice = page.locator('.ant-select-item-option').filter({ hasText: option }).first();
    picked = ((await choice.textContent({ timeout: 5_000 })) ?? '').trim();
    await choice.click({ timeout: 5_000 });
    await expect(select).toContainText(picked.split(' ')[0]!, { timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
  return picked;
}
