import type { Locator, Page } from '@playwright/test';

/**
 * A button by its label. antd puts the icon's name first ('download Get MoBatch Scripts', 'play-circle
 * Run Parameter Planning'), and the label must end the name, so 'Export' does not match 'Export Delta'.
 */
export const button = (scope: Page | Locator, label: string): Locator => scope.getByRole('button', { name: new RegExp(`(^|\\s)${label}$`) });

/** The shared table whose caption (or antd title) contains `caption`. */
export const tableOf = (page: Page, caption: string): Locator =>
  page.locator('.ant-table-wrapper').filter({ has: page.locator('caption, .ant-table-title', { hasText: caption }) });
