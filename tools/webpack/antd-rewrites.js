// Build-time rewrites of antd's and rc-component's internal imports, and the rule that lets webpack drop
// their unused modules. Each names internal files of those packages, which a new release may rename:
// rewriteProblems() says which rewrite no longer finds its import or its target, and
// shell/src/federation/antdRewrites.test.ts runs it against the installed packages.
const fs = require('node:fs');
const path = require('node:path');
const { readJson, antdComponents } = require('./sharing');

/** Where the on-demand stand-ins live (what antd's modules get instead of the imports below). */
const ON_DEMAND_DIR = path.resolve(__dirname, '../../shared-ui/src/antdOnDemand');

/**
 * Imports between antd's components that put code on a page it never runs, rerouted at build time.
 *
 * Helpers: a few components import one small helper from a module of another component whose other
 * code imports more components or libraries. The shell provides every antd component, so that other
 * code counts as used and its imports as live, and the page loads them for a helper:
 * - Button and Tag styles take `isBright` from the colour picker's presets module, whose preset panel
 *   draws a Collapse: every page with a button loaded Collapse (3.9 KB gz);
 * - Radio.Group takes `toNamePathStr` from the form's hooks module, which also holds useForm: rc-form's
 *   store and scroll-into-view (5.3 KB gz).
 * Those importers get their own instance of the module (same file, a query makes it a module of its
 * own), where only the helper is used, so the rest and its imports are dropped. Dropping an antd
 * component's import also needs its consume to carry antd's promise of no side effects (the package
 * declares it; webpack assumes any consume of a share has side effects).
 *
 * On demand: antd's Table imports Pagination (and through it Select), Tree, Checkbox, Radio and Input
 * for its own pager, its built-in filter menus (and their search box) and row selection. The console's
 * tables do their paging with the shared Pagination, filter with their own dropdown and select no rows
 * (shared-ui DataTable), so Table gets versions of those that load the real component the first time
 * one is drawn (shared-ui/src/antdOnDemand): a table page no longer loads them (≈ 50 KB gz). A page that
 * draws one of them itself still loads it at once. Likewise:
 * - Table's virtual table (with the virtual list), drawn only for `virtual` tables, which ours are not;
 * - Card's Tabs and Skeleton, drawn only for cards with `tabList` or `loading`, which ours are not
 *   (Tabs ≈ 11 KB gz);
 * - Typography's in-place editor, drawn only for `editable` text, which ours is not (with its TextArea,
 *   ≈ 10 KB gz);
 * - Progress's circle and steps, drawn only for `type="circle"`/`"dashboard"` or `steps`, which ours are
 *   not: our bars are lines (≈ 2 KB gz);
 * - the forms' rule validator (async-validator), needed first when a form validates (≈ 4 KB gz);
 * - a select's option list, with the virtual list under it, drawn only in an open dropdown (≈ 7 KB gz);
 * - the forms' scroll to a field (scroll-into-view-if-needed), used first when a form scrolls to an error;
 * - Input.OTP and Input.Search, statics of every Input, which no page draws (≈ 2 KB gz);
 * - the hooks antd's App calls on every page for `App.useApp()`: modal (Modal, with Skeleton and the
 *   dialog: ≈ 12 KB gz), notification (the toasts, ≈ 8.5 KB) and message (never used), each loaded the
 *   first time a page calls it.
 *
 * `request` matches the import as written, `from` the importing module's folder; each alternative of a
 * named group in either must still be found (rewriteProblems).
 */
const HELPER_IMPORTS = [
  { request: /[\\/]color-picker[\\/]components[\\/]ColorPresets$/, from: /[\\/]antd[\\/]es[\\/](?<importer>button|tag)[\\/]style$/ },
  { request: /[\\/]form[\\/]hooks[\\/]useForm$/, from: /[\\/]antd[\\/]es[\\/]radio$/ },
];
const ON_DEMAND_IMPORTS = [
  { request: /^(\.\.\/)+(?<component>pagination|tree|checkbox|radio)$/, from: /[\\/]antd[\\/]es[\\/]table([\\/]|$)/, to: '$<component>.ts' },
  { request: /^\.\/RcTable\/VirtualTable$/, from: /[\\/]antd[\\/]es[\\/]table$/, to: 'virtualTable.ts' },
  { request: /^(\.\.\/)+input\/Input$/, from: /[\\/]antd[\\/]es[\\/]table[\\/]/, to: 'filterSearchInput.ts' },
  { request: /^\.\.\/(modal|notification|message)\/(?<hook>useModal|useNotification|useMessage)$/, from: /[\\/]antd[\\/]es[\\/]app$/, to: '$<hook>.tsx' },
  { request: /^\.\.\/(?<component>tabs|skeleton)$/, from: /[\\/]antd[\\/]es[\\/]card$/, to: '$<component>.ts' },
  { request: /^\.\.\/Editable$/, from: /[\\/]antd[\\/]es[\\/]typography[\\/]Base$/, to: 'editable.ts' },
  { request: /^\.\/(?<part>Circle|Steps)$/, from: /[\\/]antd[\\/]es[\\/]progress$/, to: 'progress$<part>.ts' },
  { request: /^@rc-component\/async-validator$/, from: /[\\/]@rc-component[\\/]form[\\/]es[\\/]utils$/, to: 'asyncValidator.ts' },
  { request: /^\.\/OptionList$/, from: /[\\/]@rc-component[\\/]select[\\/]es$/, to: 'selectOptionList.ts' },
  { request: /^\.\/(?<part>OTP|Search)$/, from: /[\\/]antd[\\/]es[\\/]input$/, to: 'input$<part>.ts' },
  { request: /^scroll-into-view-if-needed$/, from: /[\\/]antd[\\/]es[\\/]form[\\/]hooks$/, to: 'scrollIntoView.ts' },
];

/**
 * Stand-ins of the builds' own (`to`, a file beside this one) for an antd module whose features no
 * console page uses: antd's Table row selection (its hook, with rc-tree's check helpers and a Dropdown,
 * ≈ 5 KB gz on every table page).
 */
const STAND_IN_IMPORTS = [
  { request: /^\.\/hooks\/useSelection$/, from: /[\\/]antd[\\/]es[\\/]table$/, to: path.join(__dirname, 'antd-table-no-selection.js') },
];

/**
 * These @rc-component packages declare no sideEffects, so whatever imported any of their
 * modules got all that module imports, unused or not:
 * - form: its barrel (Form, Field, List, useForm and the validator, ≈ 13 KB gz) came with every
 *   antd overlay (antd's form context wants only FormProvider, through ContextIsolator);
 * - color-picker: antd's Button and Tag style tokens want only its Color class, and its barrel
 *   brought the whole picker (palette, sliders, gradient: 3.5 KB gz) to every page with a button;
 * - tree: antd's Table wants four tree-walking helpers from its barrel for row selection, which
 *   brought the Tree component and the virtual list under it (≈ 17 KB gz) to every table page;
 * - table: antd's Table takes genTable and genVirtualTable from its barrel, which names the
 *   virtual table (and the virtual list) whether the table is virtual or not.
 * Their modules only define things (components, contexts, helpers), as do the two scroll helpers
 * antd's form hooks import (the form barrel's only code is the default export's statics, which
 * named imports never need), so webpack may drop the unused ones.
 */
const SIDE_EFFECT_FREE_FOLDERS = [
  '@rc-component/form/es',
  '@rc-component/color-picker/es',
  '@rc-component/tree/es',
  '@rc-component/table/es',
  'scroll-into-view-if-needed',
  'compute-scroll-into-view',
];

function sideEffectFreeRule() {
  const folders = SIDE_EFFECT_FREE_FOLDERS.map((folder) =>
    folder
      .split('/')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&'))
      .join('[\\\\/]'),
  );
  return { test: new RegExp(`[\\\\/]node_modules[\\\\/](${folders.join('|')})[\\\\/]`), sideEffects: false };
}

class AntdImportsPlugin {
  apply(compiler) {
    const { NormalModuleReplacementPlugin } = compiler.webpack;
    for (const { request, from } of HELPER_IMPORTS) {
      new NormalModuleReplacementPlugin(request, (resolveData) => {
        if (from.test(resolveData.context)) resolveData.request += '?helper';
      }).apply(compiler);
    }
    for (const { request, from, to } of ON_DEMAND_IMPORTS) {
      new NormalModuleReplacementPlugin(request, (resolveData) => {
        if (from.test(resolveData.context)) resolveData.request = path.join(ON_DEMAND_DIR, resolveData.request.replace(request, to));
      }).apply(compiler);
    }
    for (const { request, from, to } of STAND_IN_IMPORTS) {
      new NormalModuleReplacementPlugin(request, (resolveData) => {
        if (from.test(resolveData.context)) resolveData.request = to;
      }).apply(compiler);
    }
    compiler.hooks.compilation.tap('AntdImportsPlugin', (compilation) => {
      compilation.hooks.finishModules.tap('AntdImportsPlugin', (modules) => {
        for (const module of modules) {
          if (module.type === 'consume-shared-module' && module.options?.shareKey?.startsWith('antd/es/')) {
            module.getSideEffectsConnectionState = () => false;
          }
        }
      });
    });
  }
}

// ---- The guard: what the rewrites above expect of the installed packages ----

/** The packages whose ES modules the rewrites read (relative to a node_modules folder). */
const REWRITTEN_PACKAGES = ['antd/es', '@rc-component'];

/** Every file under `dir`, following links (a test's copy of node_modules links the packages it keeps). */
function filesUnder(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === 'node_modules' || name === 'lib') return [];
    return fs.statSync(full).isDirectory() ? filesUnder(full) : /\.m?js$/.test(name) ? [full] : [];
  });
}

/** The modules a module imports, as written (static imports, re-exports and dynamic imports). */
function importsOf(source) {
  return [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]);
}

/** Whether `request`, imported from `dir`, names a file (webpack's resolution of a relative or package request, enough here). */
function resolves(request, dir) {
  if (request.startsWith('.')) {
    const base = path.resolve(dir, request);
    return ['', '.js', '.mjs', '/index.js'].some((ext) => fs.existsSync(base + ext) && fs.statSync(base + ext).isFile());
  }
  try {
    require.resolve(request, { paths: [dir] });
    return true;
  } catch {
    return false;
  }
}

/**
 * What no longer holds in `nodeModules` (a node_modules folder) for the rewrites of this file, the
 * side-effect rule and the shared icon base, as messages (none: every rewrite still applies).
 * - a rewrite whose import is written nowhere any more (antd moved or renamed it, or imports it another way);
 * - an import the rewrite matches whose target file is gone (renamed), or whose stand-in is missing;
 * - a folder of the side-effect rule that no longer exists.
 */
function rewriteProblems(nodeModules, { onDemandDir = ON_DEMAND_DIR } = {}) {
  const problems = [];
  const imports = REWRITTEN_PACKAGES.flatMap((pkg) => filesUnder(path.join(nodeModules, pkg))).flatMap((file) =>
    importsOf(fs.readFileSync(file, 'utf8')).map((request) => ({ file, dir: path.dirname(file), request })),
  );
  const rules = [
    ...HELPER_IMPORTS.map((rule) => ({ kind: 'helper', ...rule })),
    ...ON_DEMAND_IMPORTS.map((rule) => ({ kind: 'on demand', ...rule })),
    ...STAND_IN_IMPORTS.map((rule) => ({ kind: 'stand-in', ...rule })),
  ];
  for (const rule of rules) {
    const matched = imports.filter(({ dir, request }) => rule.from.test(dir) && rule.request.test(request));
    if (matched.length === 0) problems.push(`${rule.kind} rewrite ${rule.request} from ${rule.from}: no module imports it any more`);
    for (const [pattern, value] of [
      [rule.request, ({ request }) => request],
      [rule.from, ({ dir }) => dir],
    ]) {
      for (const [, group, alternatives] of pattern.source.matchAll(/\(\?<(\w+)>([\w|-]+)\)/g)) {
        const seen = new Set(matched.map((m) => pattern.exec(value(m))?.groups?.[group]));
        for (const alternative of alternatives.split('|'))
          if (!seen.has(alternative)) problems.push(`${rule.kind} rewrite ${rule.request} from ${rule.from}: no import for ${group} '${alternative}' any more`);
      }
    }
    for (const { file, dir, request } of matched) {
      const where = path.relative(nodeModules, file);
      if (!resolves(request, dir)) problems.push(`${rule.kind} rewrite ${rule.request}: '${request}' imported by ${where} names no file`);
      if (rule.kind === 'stand-in' && !fs.existsSync(rule.to)) problems.push(`stand-in rewrite ${rule.request}: no stand-in ${rule.to}`);
      if (rule.kind === 'on demand' && !fs.existsSync(path.join(onDemandDir, request.replace(rule.request, rule.to))))
        problems.push(`on demand rewrite ${rule.request}: no stand-in ${request.replace(rule.request, rule.to)} for '${request}' of ${where}`);
    }
  }
  for (const folder of SIDE_EFFECT_FREE_FOLDERS) if (!fs.existsSync(path.join(nodeModules, folder))) problems.push(`side-effect rule: no folder ${folder}`);
  return problems;
}

/**
 * What no longer holds for the reading of antd's component list (sharing.js, antdComponents): every
 * module its barrel re-exports from must be a component folder the regex found, with an index.js.
 */
function componentListProblems(antdDir) {
  const problems = [];
  const barrel = fs.readFileSync(path.join(antdDir, 'es/index.js'), 'utf8');
  const found = new Set(antdComponents(antdDir));
  const reexported = new Set([...barrel.matchAll(/\bexport\b[^;]*?\bfrom\s*['"]\.\/([^'"]+)['"]/g)].map((m) => m[1]));
  if (reexported.size === 0) problems.push('antd/es/index.js re-exports nothing: the barrel is written another way');
  for (const module of reexported) if (!found.has(module)) problems.push(`antd/es/index.js re-exports './${module}', which the component regex does not read`);
  for (const component of found)
    if (!fs.existsSync(path.join(antdDir, 'es', component, 'index.js'))) problems.push(`antd component ${component} has no es/${component}/index.js`);
  return problems;
}

module.exports = {
  AntdImportsPlugin,
  HELPER_IMPORTS,
  ON_DEMAND_IMPORTS,
  STAND_IN_IMPORTS,
  SIDE_EFFECT_FREE_FOLDERS,
  sideEffectFreeRule,
  rewriteProblems,
  componentListProblems,
  readJson,
};
