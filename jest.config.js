/** Every package's jest suite in one run. */
module.exports = {
  // antd tables and dialogs render slowly in jsdom, the more so when 2 cores run every suite at once. A
  // project's own testTimeout is not read in a run of several projects, so it is said here for the
  // root's run and in each package's configuration (tools/jest/preset.js, api) for a package run alone.
  testTimeout: 60_000,
  projects: ['shared-auth', 'shared-ui', 'shell', 'mfe-tracking', 'mfe-planning-validation', 'mfe-monitoring', 'mfe-management', 'api'].map(
    (p) => `<rootDir>/${p}/jest.config.js`,
  ),
};
