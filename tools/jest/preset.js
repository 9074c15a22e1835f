// One jest setup for every browser-side package: swc transform, jsdom, workspace packages from source.
const path = require('node:path');
const root = path.resolve(__dirname, '../..');

// Dates in the browser packages' tests are written for UTC; the workers inherit this.
process.env.TZ = 'UTC';

module.exports = (displayName, packageDir, overrides = {}) => ({
  displayName,
  rootDir: packageDir,
  testEnvironment: path.join(__dirname, 'jsdom-environment.js'),
  testMatch: ['<rootDir>/src/**/*.test.{ts,tsx}'],
  // antd tables and dialogs render slowly in jsdom, the more so when 2 cores run every suite at once; the
  // same whether a package's suite runs alone (`npm test -w <package>`) or from the root.
  testTimeout: 60_000,
  // antd's colour and component packages ship ESM only; swc compiles them like our own code.
  transformIgnorePatterns: ['/node_modules/(?!(@ant-design|antd|@rc-component|rc-[^/]+)/)'],
  transform: {
    '^.+\\.(t|j)sx?$|^.+\\.mjs$': [
      '@swc/jest',
      {
        jsc: { target: 'es2022', parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } } },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleNameMapper: {
    // Tests load antd's CommonJS build (its main); a deep ES import (antd/es/...) takes the same module
    // from it, so a test never holds two copies of antd's contexts.
    '^antd/es/(.*)$': 'antd/lib/$1',
    '^contracts$': path.join(root, 'contracts/src/index.ts'),
    '^shared-auth$': path.join(root, 'shared-auth/src/index.ts'),
    '^shared-auth/policy$': path.join(root, 'shared-auth/src/policy.ts'),
    '^shared-auth/handoff$': path.join(root, 'shared-auth/src/handoff.ts'),
    '^shared-auth/hubClient$': path.join(root, 'shared-auth/src/hubClient.ts'),
    '^shared-ui/theme$': path.join(root, 'shared-ui/src/theme/tokens.ts'),
    '^shared-ui$': path.join(root, 'shared-ui/src/index.ts'),
    '^shared-ui/testing$': path.join(root, 'shared-ui/src/testing/index.ts'),
  },
  setupFilesAfterEnv: [path.join(__dirname, 'setup.js')],
  ...overrides,
});
