/**
 * @jest-environment node
 */
// What the console shares between the shell and the remotes (tools/webpack/index.js). The browser
// side is proven by e2e/tests/federation.spec.ts (one version of every shared module, a remote's
// button in the shell's theme); these rules fail at build-configuration level, before a page breaks.
import fs from 'node:fs';
import path from 'node:path';
import { BROWSER_PACKAGES, REPO_ROOT, importedNames, sourceFiles } from '../testing/sources';

interface ShareConfig {
  shareKey?: string;
  singleton?: boolean;
  import?: string | false;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const sharing = require('../../../tools/webpack/index.js') as {
  SHARED_UI_STATEFUL: string[];
  ROUTER_SHARE: string;
  CSSINJS_SHARE: string;
  YUP_SHARE: string;
  RHF_SHARE: string;
  sharedSingletons: (packageDir: string, options?: { antdFromHost?: boolean }) => Record<string, ShareConfig>;
};

const REMOTES = BROWSER_PACKAGES.filter((p) => p.startsWith('mfe-'));

test('every name the console imports from react-router-dom is in the shared router module', () => {
  const facade = fs.readFileSync(sharing.ROUTER_SHARE, 'utf8');
  const exported = new Set(importedNames(facade.replace(/^export/m, 'import'), 'react-router'));
  expect(exported.size).toBeGreaterThan(5);
  const used = new Set(
    BROWSER_PACKAGES.flatMap((p) => sourceFiles(path.join(REPO_ROOT, p, 'src')).flatMap((f) => importedNames(fs.readFileSync(f, 'utf8'), 'react-router-dom'))),
  );
  expect(used.size).toBeGreaterThan(5);
  expect([...used].filter((name) => !exported.has(name))).toEqual([]);
});

test('every yup builder the console calls is in the shared yup module, and the form stack is shared from it', () => {
  const facade = fs.readFileSync(sharing.YUP_SHARE, 'utf8');
  const exported = new Set(
    [...facade.matchAll(/^export \{([^}]*)\} from 'yup\/index\.esm\.js';$/gm)].flatMap((m) => (m[1] ?? '').split(',').map((part) => part.trim())),
  );
  expect(exported.size).toBeGreaterThan(3);
  // `yup.object(...)`, `yup.ref(...)`: values (a capital letter is a type, `yup.ObjectSchema`), and names imported from 'yup'.
  const used = new Set(
    BROWSER_PACKAGES.flatMap((p) =>
      sourceFiles(path.join(REPO_ROOT, p, 'src')).flatMap((f) => {
        const text = fs.readFileSync(f, 'utf8');
        return [...[...text.matchAll(/\byup\.([a-z]\w*)/g)].map((m) => m[1] ?? ''), ...importedNames(text, 'yup')];
      }),
    ),
  );
  expect(used.size).toBeGreaterThan(3);
  expect([...used].filter((name) => !exported.has(name))).toEqual([]);
  const shared = sharing.sharedSingletons(path.join(REPO_ROOT, 'mfe-management'));
  expect(shared['yup']?.import).toBe(sharing.YUP_SHARE);
  for (const request of ['react-hook-form', '@hookform/resolvers/yup']) expect(shared[request]?.singleton).toBe(true);
});

test('every name the console and @hookform/resolvers import from react-hook-form is in the shared react-hook-form module', () => {
  const facade = fs.readFileSync(sharing.RHF_SHARE, 'utf8');
  const exported = new Set(
    [...facade.matchAll(/^export \{([^}]*)\} from 'react-hook-form-esm';$/gm)].flatMap((m) => (m[1] ?? '').split(',').map((part) => part.trim())),
  );
  expect(exported.size).toBeGreaterThan(2);
  // The resolvers' ES builds, minified: `import{appendErrors as r}from"react-hook-form"`.
  const resolversDir = path.dirname(require.resolve('@hookform/resolvers/yup', { paths: [path.join(REPO_ROOT, 'shared-ui')] }));
  const resolverFiles = [path.join(resolversDir, 'yup.mjs'), path.join(resolversDir, '../../dist/resolvers.mjs')];
  const fromResolvers = resolverFiles.flatMap((f) =>
    [...fs.readFileSync(f, 'utf8').matchAll(/import\{([^}]*)\}from"react-hook-form"/g)].flatMap((m) =>
      (m[1] ?? '').split(',').map((part) => part.split(' as ')[0]!.trim()),
    ),
  );
  expect(fromResolvers.length).toBeGreaterThan(0);
  const used = new Set([
    ...BROWSER_PACKAGES.flatMap((p) =>
      sourceFiles(path.join(REPO_ROOT, p, 'src')).flatMap((f) => importedNames(fs.readFileSync(f, 'utf8'), 'react-hook-form')),
    ),
    ...fromResolvers,
  ]);
  expect(used.size).toBeGreaterThan(3);
  expect([...used].filter((name) => !exported.has(name))).toEqual([]);
});

test('every name the bundled packages import from @ant-design/cssinjs is in the shared cssinjs module, which is what the share provides', () => {
  const facade = fs.readFileSync(sharing.CSSINJS_SHARE, 'utf8');
  const exported = new Set(
    [...facade.matchAll(/^export \{([^}]*)\} from '@ant-design\/cssinjs\/es\/[\w/-]+';$/gm)].flatMap((m) =>
      (m[1] ?? '').split(',').map(
        (part) =>
          part
            .trim()
            .split(/\s+as\s+/)
            .pop() ?? '',
      ),
    ),
  );
  expect(exported.size).toBeGreaterThan(5);
  // What the shell bundles that imports it: antd, the @ant-design helpers (cssinjs-utils, icons) and
  // the @rc-component packages, in their ES builds; and the console's own code.
  const esModules = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return ['lib', 'dist', 'node_modules'].includes(entry.name) ? [] : esModules(full);
      return /\.m?js$/.test(entry.name) ? [full] : [];
    });
  const bundled = ['antd/es', '@ant-design', '@rc-component'].flatMap((dir) => esModules(path.join(REPO_ROOT, 'node_modules', dir)));
  const ownSources = BROWSER_PACKAGES.flatMap((p) => sourceFiles(path.join(REPO_ROOT, p, 'src')));
  const importers = [...bundled, ...ownSources].map((file) => fs.readFileSync(file, 'utf8')).filter((source) => source.includes("'@ant-design/cssinjs'"));
  const used = new Set(importers.flatMap((source) => importedNames(source, '@ant-design/cssinjs')));
  expect([...used]).toEqual(expect.arrayContaining(['unit', 'useCacheToken', 'useCSSVarRegister', 'StyleContext']));
  expect([...used].filter((name) => !exported.has(name))).toEqual([]);
  // No default or namespace import, which the facade would not answer.
  expect(importers.filter((source) => /import\s+(\*\s+as\s+)?\w+\s*(,\s*\{[^}]*\})?\s+from\s+'@ant-design\/cssinjs'/.test(source))).toEqual([]);
  expect(sharing.sharedSingletons(path.join(REPO_ROOT, 'shell'))['@ant-design/cssinjs']).toEqual(
    expect.objectContaining({ singleton: true, import: sharing.CSSINJS_SHARE }),
  );
});

test("shared-ui's modules that hold page-wide state are exactly the ones shared as singletons", () => {
  // Top-level `let`, or a top-level collection not typed read-only: state that two copies (shell's, a
  // remote's) would split.
  const stateful = sourceFiles(path.join(REPO_ROOT, 'shared-ui/src'))
    .filter((file) => /^(?:export )?(?:let \w|const \w+(?::(?!\s*Readonly)[^=]+)? = (?:new \w|\[\]|\{\}))/m.test(fs.readFileSync(file, 'utf8')))
    .map((file) => path.relative(path.join(REPO_ROOT, 'shared-ui'), file))
    .sort();
  expect(stateful).toEqual([...sharing.SHARED_UI_STATEFUL].sort());
});

test('antd is shared one component at a time, never whole, and remotes take every component from the shell', () => {
  const host = sharing.sharedSingletons(path.join(REPO_ROOT, 'shell'));
  expect(host.antd).toBeUndefined();
  const antdKeys = (config: Record<string, ShareConfig>) =>
    Object.entries(config)
      .filter(([, c]) => c.shareKey?.startsWith('antd/es/'))
      .map(([file, c]) => [c.shareKey, path.relative(REPO_ROOT, file)]);
  const hostAntd = antdKeys(host);
  expect(hostAntd).toEqual(
    expect.arrayContaining([
      ['antd/es/button', 'node_modules/antd/es/button/index.js'],
      ['antd/es/config-provider', 'node_modules/antd/es/config-provider/index.js'],
      ['antd/es/table', 'node_modules/antd/es/table/index.js'],
    ]),
  );
  expect(Object.values(host).every((c) => c.singleton)).toBe(true);
  // The shell provides (its shares import their module); a remote in the console only consumes.
  expect(Object.values(host).some((c) => c.import === false)).toBe(false);
  for (const remote of REMOTES) {
    const config = sharing.sharedSingletons(path.join(REPO_ROOT, remote), { antdFromHost: true });
    expect(antdKeys(config)).toEqual(hostAntd);
    for (const [key, c] of Object.entries(config)) if (c.shareKey?.startsWith('antd/es/')) expect([key, c.import]).toEqual([key, false]);
  }
});
