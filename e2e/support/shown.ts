import type { Page } from '@playwright/test';

type ShownFlags = { shownSelectors?: Record<string, boolean> };

/**
 * Records whether an element matching `selector` was ever on the page, however briefly: a job's progress
 * bar may come and go between two polls, and even within one task (the last poll and the answer arriving
 * together). Looking for it when the observer is told saw nothing then; the mutation records still hold
 * every node added or removed, so those are searched too.
 */
export async function watchShown(page: Page, selector: string): Promise<void> {
  await page.evaluate((wanted) => {
    const flags = ((window as unknown as ShownFlags).shownSelectors ??= {});
    const holds = (node: Node) => node instanceof Element && (node.matches(wanted) || node.querySelector(wanted) !== null);
    flags[wanted] = flags[wanted] === true || document.querySelector(wanted) !== null;
    new MutationObserver((records) => {
      if (flags[wanted]) return;
      flags[wanted] =
        records.some((record) => Array.from(record.addedNodes).some(holds) || Array.from(record.removedNodes).some(holds)) ||
        document.querySelector(wanted) !== null;
    }).observe(document.body, { childList: true, subtree: true });
  }, selector);
}

/** Whether {@link watchShown} saw `selector` on the page since it started watching. */
export function wasShown(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((wanted) => (window as unknown as ShownFlags).shownSelectors?.[wanted] === true, selector);
}
