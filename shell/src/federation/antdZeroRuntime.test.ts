/**
 * @jest-environment node
 */
// The browser builds leave antd's style generators out (tools/webpack/antd-zero-runtime.js): sound only
// while every antd render is zero-runtime, and only while the loader finds every one of them.
import fs from 'node:fs';
import path from 'node:path';
import { BROWSER_PACKAGES, REPO_ROOT, importedNames, sourceFiles } from '../testing/sources';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { withoutRuntimeStyles } = require('../../../tools/webpack/antd-zero-runtime.js') as { withoutRuntimeStyles: (source: string) => string };

const ANTD_ES = path.join(REPO_ROOT, 'node_modules/antd/es');
const FACTORY_CALL = /\b(genStyleHooks|genComponentStyleHook|genSubStyleComponent)\(/g;

function antdModules(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return antdModules(full);
    return entry.name.endsWith('.js') ? [full] : [];
  });
}

const read = (relative: string) => fs.readFileSync(path.join(ANTD_ES, relative), 'utf8');

test('every style-hook factory call in antd is handed a style function that writes nothing, its token preparation and options kept', () => {
  let calls = 0;
  let emptied = 0;
  for (const file of antdModules(ANTD_ES)) {
    const source = fs.readFileSync(file, 'utf8');
    const found = source.match(FACTORY_CALL)?.length ?? 0;
    if (found === 0) continue;
    calls += found;
    const out = withoutRuntimeStyles(source);
    // Each call's second argument: `name(<first argument>, () => []`. The first is a name or a pair of names.
    emptied += out.match(/\b(?:genStyleHooks|genComponentStyleHook|genSubStyleComponent)\((?:'[^']*'|\[[^\]]*\]|\w+), \(\) => \[\]/g)?.length ?? 0;
  }
  // A call the loader does not see (antd written another way) would keep its style function: this fails then.
  expect(calls).toBeGreaterThan(80);
  expect(emptied).toBe(calls);

  const table = withoutRuntimeStyles(read('table/style/index.js'));
  expect(table).toContain("genStyleHooks('Table', () => [], prepareComponentToken, {\n  resetFont: false,");
  // The generator itself is still declared (the minifier drops it once nothing calls it), never called.
  expect(table).not.toMatch(/genTableStyle\(tableToken\)/);
  expect(table).toContain('export const prepareComponentToken');
});

test("antd's style configuration keeps its hooks and drops the reset and common rules only a run-time style writes", () => {
  const out = withoutRuntimeStyles(read('theme/util/genStyleUtils.js'));
  expect(out).toContain('getResetStyles: undefined,');
  expect(out).toContain('getCommonStyle: undefined,');
  expect(out).toContain('useToken: () => {');
  expect(out).toContain('getCompUnitless: () => unitless');
});

test('a module with no style hook comes back byte for byte', () => {
  for (const relative of ['button/Button.js', 'table/InternalTable.js', 'style/index.js']) {
    const source = read(relative);
    expect(withoutRuntimeStyles(source)).toBe(source);
  }
});

test('every antd render of the console is zero-runtime: one ConfigProvider (ConsoleProviders, both themes zero-runtime), no static dialogs or toasts', () => {
  const files = BROWSER_PACKAGES.flatMap((p) => sourceFiles(path.join(REPO_ROOT, p, 'src')));
  expect(files.length).toBeGreaterThan(50);
  const providers = files.filter((f) => /<ConfigProvider\b/.test(fs.readFileSync(f, 'utf8'))).map((f) => path.relative(REPO_ROOT, f));
  expect(providers).toEqual(['shared-ui/src/widgets/ConsoleProviders.tsx']);
  const consoleProviders = fs.readFileSync(path.join(REPO_ROOT, 'shared-ui/src/widgets/ConsoleProviders.tsx'), 'utf8');
  expect(consoleProviders).toMatch(/const consoleTheme: Readonly<ThemeConfig> = \{ \.\.\.cellwiseTheme, zeroRuntime: true \};/);
  expect(consoleProviders).toMatch(/const stillTheme: Readonly<ThemeConfig> = \{ \.\.\.consoleTheme,/);
  expect(consoleProviders).toMatch(/theme=\{reducedMotion \? stillTheme : consoleTheme\}/);
  // antd's static methods render outside the providers, with run-time styles; App.useApp()'s render inside.
  const statics = files.filter((f) => {
    const source = fs.readFileSync(f, 'utf8');
    const names = importedNames(source, 'antd').filter((n) => ['Modal', 'message', 'notification'].includes(n));
    return names.some((n) => new RegExp(`\\b${n}\\.(confirm|info|success|error|warning|warn|open|loading|destroy)\\(`).test(source));
  });
  expect(statics).toEqual([]);
});
