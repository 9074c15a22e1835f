import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Files that run only in development (tests, build and test configuration, e2e, benches,
// repository scripts): they may import what their package declares as a devDependency.
const devOnlyFiles = [
  '**/*.test.{ts,tsx,js,mjs}',
  '**/test/**',
  '**/src/testing/**',
  '**/jest.config.{js,cjs,mjs}',
  '**/webpack.config.{js,cjs,mjs}',
  '**/playwright.config.ts',
  '**/eslint.config.mjs',
  '**/e2e/**',
  '**/bench/**',
  '**/scripts/**',
  '**/tools/**',
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/coverage/**',
      'data/**',
      'e2e/test-results/**',
      'e2e/playwright-report/**',
      'bench/out/**',
      '**/.build-stamps/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Every package declares what it imports, so an area builds and deploys alone: each file is
    // checked against its nearest package.json (no packageDir, so the root's devDependencies do
    // not cover the workspaces). Imports are resolved the way tsc and webpack resolve them
    // (TypeScript extensions, the cellwise-source condition), because the rule skips whatever it
    // cannot resolve. Workspace packages (shared-ui, shared-auth, contracts) resolve to
    // their source outside node_modules, so they count as dependencies like any other.
    files: ['**/*.{ts,tsx,js,cjs,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.d.ts', '.mjs', '.js', '.cjs', '.json', '.node'],
          conditionNames: ['cellwise-source', 'types', 'import', 'require', 'node', 'default'],
          mainFields: ['types', 'typings', 'module', 'main'],
        }),
      ],
    },
    rules: {
      // no-extraneous-dependencies passes over an import it cannot resolve (say, a package
      // installed only under another workspace's node_modules); this makes such an import fail.
      'import-x/no-unresolved': ['error', { commonjs: true }],
      // What runs: a dependency (a devDependency in files that run only in development).
      'import-x/no-extraneous-dependencies': [
        'error',
        { devDependencies: devOnlyFiles, optionalDependencies: false, peerDependencies: true, includeInternal: true },
      ],
    },
  },
  {
    // What is only a type (`import type`, erased from the bundle): declared at least as a
    // devDependency. The same rule under a second name, so both checks apply to a file.
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x-types': { rules: { 'no-extraneous-dependencies': importX.rules['no-extraneous-dependencies'] } } },
    rules: {
      'import-x-types/no-extraneous-dependencies': [
        'error',
        { devDependencies: true, optionalDependencies: false, peerDependencies: true, includeInternal: true, includeTypes: true },
      ],
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // Raw role strings belong to the access policy only (docs/architecture.md#federation-rules).
      'no-restricted-syntax': [
        'error',
        {
          selector: 'BinaryExpression[operator=/^[!=]==$/] > Literal[value=/^(Administrator|Manager|CellwiseHQ|CellwiseOS)$/]',
          message: 'Compare roles through the access policy in shared-auth, not with raw strings.',
        },
      ],
    },
  },
  {
    // The policy is the one place allowed to name roles.
    files: ['shared-auth/src/policy.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['**/*.{js,cjs,mjs}'],
    languageOptions: { globals: { ...globals.node }, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'e2e/**/*.ts', 'bench/**'],
    languageOptions: { globals: { ...globals.jest, ...globals.node } },
  },
  prettier,
);
