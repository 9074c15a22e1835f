/** Every package's jest suite in one run. */
module.exports = {
  // antd tables and dialogs render slowly in jsdom, the more so when 2 cores run every suite at once.
  testTimeout: 60_000,
  projects: ['shared-auth', 'shared-ui', 'shell', 'mfe-tracking', 'mfe-planning-validation', 'mfe-monitoring', 'mfe-management', 'api'].map(
    (p) => `<rootDir>/${p}/jest.config.js`,
  ),
};
