import { defineConfig } from '@playwright/test';

/** Debian's Chromium, never a browser downloaded by the test tool (scripts/ensure-chromium.sh installs it). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export default defineConfig({
  testDir: './tests',
  globalSetup: './support/global-setup.ts',
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: './test-results',
  use: {
    browserName: 'chromium',
    viewport: { width: 1400, height: 900 },
    // As a user who asks for less motion: dialogs appear where they stay. Mid-zoom, a loaded machine let
    // Playwright click a 13×6 px Save button whose mouse-up then fell outside it, so the click never
    // happened. The walkthrough keeps antd's motion, and management.spec.ts checks both kinds of user.
    reducedMotion: 'reduce',
    launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
  },
});
