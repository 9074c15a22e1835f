/** API suites run against a real SQLite file, and against PostgreSQL too when DATABASE_URL is set. */
module.exports = {
  displayName: 'api',
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // fastify's test injector pulls an ESM-only cookie parser; swc compiles it like our own code.
  transformIgnorePatterns: ['^(?!.*/node_modules/cookie/).*/node_modules/'],
  transform: { '^.+\\.(ts|js)$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }] },
  moduleNameMapper: { '^shared-auth/policy$': '<rootDir>/../shared-auth/src/policy.ts', '^contracts$': '<rootDir>/../contracts/src/index.ts' },
  testTimeout: 30000,
  // Suites touch rows directly, as work of the first operator (see the file).
  setupFiles: ['<rootDir>/test/support/operator.ts'],
};
