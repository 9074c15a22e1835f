/**
 * @jest-environment node
 */
// The builds rewrite imports inside antd and rc-component (tools/webpack/antd-rewrites.js) and read
// antd's component list from its barrel (tools/webpack/sharing.js). Both name internal files a new
// release may rename; a rewrite that no longer matches changes nothing and the build still passes,
// only heavier. These tests read the installed packages and fail then, and prove the guard sees it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../testing/sources';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const rewrites = require('../../../tools/webpack/antd-rewrites.js') as {
  ON_DEMAND_IMPORTS: unknown[];
  HELPER_IMPORTS: unknown[];
  rewriteProblems: (nodeModules: string) => string[];
  componentListProblems: (antdDir: string) => string[];
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sharing = require('../../../tools/webpack/sharing.js') as { antdComponents: (antdDir: string) => string[] };

const NODE_MODULES = path.join(REPO_ROOT, 'node_modules');

const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function tempRoot(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'antd-rewrites-'));
  made.push(dir);
  return dir;
}

/** A folder of links to every entry of `real`, except `own` entries, which the caller writes. */
function linkedCopy(real: string, copy: string, own: string[] = []): void {
  fs.mkdirSync(copy, { recursive: true });
  for (const name of fs.readdirSync(real)) if (!own.includes(name)) fs.symlinkSync(path.join(real, name), path.join(copy, name));
}

/**
 * A node_modules folder of links to the installed packages, with `changed` (a path inside it, e.g.
 * '@rc-component/select/es/OptionList.js') a real file of the caller's, every folder above it real.
 */
function nodeModulesWith(changed: string, write: (dir: string, original: string) => void): string {
  const root = tempRoot();
  const parts = changed.split('/');
  let real = NODE_MODULES;
  let copy = path.join(root, 'node_modules');
  for (const part of parts.slice(0, -1)) {
    linkedCopy(real, copy, [part]);
    real = path.join(real, part);
    copy = path.join(copy, part);
  }
  const file = parts.at(-1) ?? '';
  linkedCopy(real, copy, [file]);
  write(copy, fs.readFileSync(path.join(real, file), 'utf8'));
  return path.join(root, 'node_modules');
}

test('every build-time rewrite of an antd or rc-component import still finds its import, its target and its stand-in', () => {
  expect(rewrites.ON_DEMAND_IMPORTS.length + rewrites.HELPER_IMPORTS.length).toBeGreaterThan(10);
  expect(rewrites.rewriteProblems(NODE_MODULES)).toEqual([]);
});

test("the regex reading antd's component list finds every module the barrel re-exports", () => {
  const components = sharing.antdComponents(path.join(NODE_MODULES, 'antd'));
  expect(components).toEqual(expect.arrayContaining(['button', 'table', 'form', 'select', 'modal']));
  expect(components.length).toBeGreaterThan(60);
  expect(rewrites.componentListProblems(path.join(NODE_MODULES, 'antd'))).toEqual([]);
});

describe('the guard fails on a changed package', () => {
  test('an internal file renamed: the import a rewrite reroutes names no file', () => {
    const nodeModules = nodeModulesWith('@rc-component/select/es/OptionList.js', (dir, original) =>
      fs.writeFileSync(path.join(dir, 'OptionList.renamed.js'), original),
    );
    expect(rewrites.rewriteProblems(nodeModules)).toEqual([
      "on demand rewrite /^\\.\\/OptionList$/: './OptionList' imported by @rc-component/select/es/Select.js names no file",
    ]);
  });

  test('an import written another way: the rewrite finds it no more', () => {
    const nodeModules = nodeModulesWith('antd/es/progress/progress.js', (dir, original) =>
      fs.writeFileSync(path.join(dir, 'progress.js'), original.replace("from './Circle';", "from './Circle/index.js';")),
    );
    expect(rewrites.rewriteProblems(nodeModules)).toEqual([
      "on demand rewrite /^\\.\\/(?<part>Circle|Steps)$/ from /[\\\\/]antd[\\\\/]es[\\\\/]progress$/: no import for part 'Circle' any more",
    ]);
  });

  test('a folder of the side-effect rule gone: the rule says so', () => {
    const root = tempRoot();
    linkedCopy(NODE_MODULES, path.join(root, 'node_modules'), ['compute-scroll-into-view']);
    expect(rewrites.rewriteProblems(path.join(root, 'node_modules'))).toEqual(['side-effect rule: no folder compute-scroll-into-view']);
  });

  test("antd's barrel written another way: the component list is found short", () => {
    const nodeModules = nodeModulesWith('antd/es/index.js', (dir, original) =>
      fs.writeFileSync(
        path.join(dir, 'index.js'),
        original.replace("export { default as Button } from './button';", 'export { default as Button } from "./button";'),
      ),
    );
    expect(rewrites.componentListProblems(path.join(nodeModules, 'antd'))).toEqual([
      "antd/es/index.js re-exports './button', which the component regex does not read",
    ]);
  });
});

test("the table's stand-in row selection answers as antd does without rowSelection, and refuses rowSelection loudly", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const standIn = require('../../../tools/webpack/antd-table-no-selection.js') as {
    SELECTION_COLUMN: object;
    default: (config: object, rowSelection?: object) => [(columns: object[]) => object[], Set<unknown>];
  };
  const column = { key: 'name' };
  const [transformColumns, selected] = standIn.default({}, undefined);
  expect(transformColumns([standIn.SELECTION_COLUMN, column])).toEqual([column]);
  expect(selected.size).toBe(0);
  expect(() => standIn.default({}, { type: 'checkbox' })).toThrow(/rowSelection is left out/);
});
