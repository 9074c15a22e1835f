/** Every package's jest suite in one run. */
module.exports = {
  projects: ['shared-auth', 'shared-ui', 'shell', 'mfe-tracking', 'mfe-planning-validation', 'mfe-monitoring', 'mfe-management', 'api'].map(
    (p) => `<rootDir>/${p}/jest.config.js`,
  ),
};
