/**
 * @jest-environment node
 */
// The console's antd stylesheet leaves out the components no page uses (tools/webpack/antd-stylesheet.js).
// In zero-runtime mode nothing else would style them, so a page that starts using one, or an antd
// component that starts drawing one inside, must fail here rather than show up unstyled.
import fs from 'node:fs';
import path from 'node:path';
import { ANTD_STYLESHEET_ID } from './antdStylesheet';
import { BROWSER_PACKAGES, REPO_ROOT, importedNames, sourceFiles } from './testing/sources';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const stylesheet = require('../../tools/webpack/antd-stylesheet.js') as {
  ANTD_STYLESHEET_ID: string;
  OMITTED_COMPONENTS: Record<string, string>;
  filterAntdCss: (css: string, omittedRoots?: string[]) => string;
};

const ANTD_ES = path.join(REPO_ROOT, 'node_modules/antd/es');

/** antd's folder of an export: `InputNumber` → input-number; the grid's and the QR code's are named otherwise. */
function folderOf(exportName: string): string {
  if (exportName === 'Row' || exportName === 'Col') return 'grid';
  if (exportName === 'QRCode') return 'qr-code';
  return exportName.replace(/(?<=[a-z0-9])([A-Z])/g, '-$1').toLowerCase();
}

/** antd folders a source file names: `import { X } from 'antd'` and any `antd/es/<folder>/…` module path. */
function foldersNamedIn(source: string): string[] {
  const named = importedNames(source, 'antd').map(folderOf);
  const paths = [...source.matchAll(/['"]antd\/es\/([a-z-]+)/g)].map((m) => m[1] as string);
  return [...named, ...paths];
}

function resolveModule(from: string, request: string): string | null {
  const target = path.resolve(path.dirname(from), request);
  for (const candidate of [target, `${target}.js`, path.join(target, 'index.js')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/**
 * Every antd component drawn when `folders` are: antd's modules are followed through their relative
 * imports, and a folder counts when its component (its index.js) is reached. Helpers alone do not draw
 * anything (Button's style reads color-picker's Color class; the locales import the pickers' texts).
 */
function componentsReached(folders: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const pending = [...folders].map((folder) => path.join(ANTD_ES, folder, 'index.js')).filter((file) => fs.existsSync(file));
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const source = fs.readFileSync(file, 'utf8');
    for (const match of source.matchAll(/(?:from\s*|import\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const next = resolveModule(file, match[1] as string);
      if (next) pending.push(next);
    }
  }
  const reached = new Set<string>();
  for (const file of seen) {
    const [folder, ...rest] = path.relative(ANTD_ES, file).split(path.sep);
    if (folder && rest.join('/') === 'index.js') reached.add(folder);
  }
  return reached;
}

function consoleFolders(): Set<string> {
  const folders = new Set<string>();
  for (const pkg of BROWSER_PACKAGES) {
    for (const file of sourceFiles(path.join(REPO_ROOT, pkg, 'src'))) for (const folder of foldersNamedIn(fs.readFileSync(file, 'utf8'))) folders.add(folder);
  }
  return folders;
}

test('no page draws an antd component whose styles the stylesheet leaves out, directly or inside another component', () => {
  const drawn = componentsReached(consoleFolders());
  // The walk follows antd's own composition: a table draws its pagination, checkboxes and filter tree.
  for (const inner of ['table', 'pagination', 'checkbox', 'tree', 'dropdown', 'button']) expect(drawn.has(inner)).toBe(true);
  expect(Object.keys(stylesheet.OMITTED_COMPONENTS).filter((folder) => drawn.has(folder))).toEqual([]);
});

test('the guard sees a component a page would start using, and what antd draws inside it', () => {
  const drawn = componentsReached(foldersNamedIn("import { Button, DatePicker } from 'antd';\nimport Transfer from 'antd/es/transfer';"));
  expect(drawn.has('date-picker')).toBe(true);
  expect(drawn.has('transfer')).toBe(true);
  // Transfer draws its lists with checkboxes and a search input.
  expect(drawn.has('checkbox')).toBe(true);
  expect(Object.keys(stylesheet.OMITTED_COMPONENTS).filter((folder) => drawn.has(folder))).toEqual(expect.arrayContaining(['date-picker', 'transfer']));
});

test("the stylesheet keeps every rule of a component in use, drops an omitted one's (also inside @media), and keeps rules that style both", () => {
  const css =
    '.ant-picker{a:1}.ant-picker-dropdown .ant-picker-cell{b:2}.ant-btn{c:3}@media (max-width:575px){.ant-picker-panels{d:4}}' +
    '@media (min-width:576px){.ant-btn-lg{e:5}}.ant-picker,.ant-input{f:6}@keyframes antZoomIn{0%{g:7}}.anticon{h:8}' +
    '.css-var-_R_0_{--ant-blue:#1677FF}.css-var-_r_0_.ant-btn{--ant-button-x:1}.ant-steps-item{i:9}.ant-stepsx{j:10}a:hover .ant-badge{k:11}';
  expect(stylesheet.filterAntdCss(css, ['picker', 'steps'])).toBe(
    '.ant-btn{c:3}@media (min-width:576px){.ant-btn-lg{e:5}}.ant-picker,.ant-input{f:6}@keyframes antZoomIn{0%{g:7}}.anticon{h:8}' +
      '.css-var-_r_0_.ant-btn{--ant-button-x:1}.ant-stepsx{j:10}a:hover .ant-badge{k:11}',
  );
});

test("antd's own stylesheet still parses whole, and what the console omits is at most the third it was measured at", () => {
  const css = fs.readFileSync(path.join(REPO_ROOT, 'node_modules/antd/dist/antd.css'), 'utf8');
  const kept = stylesheet.filterAntdCss(css);
  expect(kept.length).toBeGreaterThan(css.length * 0.55);
  expect(kept.length).toBeLessThan(css.length);
  for (const rule of ['.ant-btn', '.ant-table-thead', '.ant-select-dropdown', '.ant-menu-dark', '.ant-modal-container', '.ant-pagination', '.anticon']) {
    expect(kept).toContain(rule);
  }
});

test('the shell looks for the stylesheet under the id the build gives its link', () => {
  expect(stylesheet.ANTD_STYLESHEET_ID).toBe(ANTD_STYLESHEET_ID);
});
