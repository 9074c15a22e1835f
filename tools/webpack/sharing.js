// The sharing rules of every build (shell and remotes): which modules exist once per page, and how antd,
// its icon base and shared-ui are shared module by module, so the singleton list cannot drift between areas.
const path = require('node:path');
const fs = require('node:fs');
const { AXIOS_SHARE } = require('./axios');

/**
 * Packages that must exist once per page: two copies of any of them breaks hooks, context or the session.
 * antd, shared-ui and `@ant-design/icons` are shared module by module instead (antdComponentShares,
 * iconBaseShares, sharedUiShares): a shared package is loaded whole, and shared whole they put all of
 * antd (450 KB gz) and every icon (185 KB gz) on every page.
 */
const SINGLETONS = [
  'react',
  'react/jsx-runtime',
  'react-dom',
  'react-dom/client',
  'react-router-dom',
  '@ant-design/cssinjs',
  'zustand',
  'dayjs',
  // The HTTP and hub clients hold the session's interceptors and the one hub connection of the tab.
  'axios',
  '@microsoft/signalr',
  'shared-auth',
  // The form stack of shared-ui/src/widgets/forms.tsx: not page-wide state, but a library the shell and
  // every area with a form would each bundle (25 KB gz a copy, more than half of a remote's own budget
  // of 40 KB); shared, a page loads it once from whichever build provides it (issue 48).
  'react-hook-form',
  'yup',
  '@hookform/resolvers/yup',
];

/** The module shared as 'react-router-dom': the names the console uses, so the shared router is tree-shaken. */
const ROUTER_SHARE = path.join(__dirname, 'react-router-dom.js');

/** The module shared as 'yup': the schema builders the console's forms use, so the shared yup is tree-shaken. */
const YUP_SHARE = path.join(__dirname, 'yup.js');

/** The module shared as 'react-hook-form': the hooks the console's forms call, so the shared copy is tree-shaken. */
const RHF_SHARE = path.join(__dirname, 'react-hook-form.js');

/** The alias RHF_SHARE imports react-hook-form's ES build by, past the package's exports map. */
function formStackAliases() {
  const rhfDir = path.dirname(require.resolve('react-hook-form/package.json'));
  return { 'react-hook-form-esm$': path.join(rhfDir, 'dist/index.esm.mjs') };
}

/** The module shared as '@ant-design/cssinjs': the names antd and its helpers import, so the rest is left out. */
const CSSINJS_SHARE = path.join(__dirname, 'cssinjs.js');

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** Version of an installed package, read from its own package.json (subpaths use their package's). */
function installedVersion(request, fromDir) {
  const pkgName = request.startsWith('@') ? request.split('/').slice(0, 2).join('/') : request.split('/')[0];
  let pkgJson;
  try {
    pkgJson = require.resolve(`${pkgName}/package.json`, { paths: [fromDir] });
  } catch {
    // A package whose exports map leaves out its package.json (@hookform/resolvers), maybe installed
    // only under shared-ui, which imports it for the build: looked up in the node_modules folders of both.
    const sharedUiDir = path.dirname(require.resolve('shared-ui/package.json', { paths: [fromDir] }));
    const found = [fromDir, sharedUiDir]
      .flatMap((start) => start.split(path.sep).map((_, i, parts) => parts.slice(0, parts.length - i).join(path.sep) || path.sep))
      .map((dir) => path.join(dir, 'node_modules', pkgName, 'package.json'))
      .find((file) => fs.existsSync(file));
    if (!found) throw new Error(`${pkgName} is not installed (wanted from ${fromDir})`);
    pkgJson = found;
  }
  return { pkgName, version: readJson(pkgJson).version };
}

/**
 * shared-ui is bundled by each build like any library (tree-shaken: a page carries the widgets it
 * uses), except its modules that hold state for the whole page, shared by resolved file like antd's
 * components. Today that is the job-outcome claims: a remote's dialog claims an outcome, the shell's
 * hub must see the claim to not toast it twice. A module with page-wide state joins this list;
 * shell/src/federation/sharing.test.ts fails when one is left out.
 */
const SHARED_UI_STATEFUL = ['src/toasts/jobOutcomes.ts'];

function sharedUiShares(packageDir) {
  const sharedUiDir = path.dirname(require.resolve('shared-ui/package.json', { paths: [packageDir] }));
  const { version } = readJson(path.join(sharedUiDir, 'package.json'));
  const shared = {};
  for (const file of SHARED_UI_STATEFUL) {
    shared[fs.realpathSync(path.join(sharedUiDir, file))] = {
      shareKey: `shared-ui/${file.replace(/\.tsx?$/, '')}`,
      singleton: true,
      requiredVersion: version,
      version,
    };
  }
  return shared;
}

/** How antd's barrel (antd/es/index.js) names each component folder it re-exports. */
const ANTD_BARREL_EXPORT = /from '\.\/([a-z-]+)'/g;

/**
 * antd's component folders, read from its barrel. shell/src/federation/antdRewrites.test.ts compares
 * this with every relative module the barrel names, however written, and fails when antd writes its
 * barrel another way and this regex misses one (that component would be bundled per build, not shared).
 */
function antdComponents(antdDir) {
  const barrel = fs.readFileSync(path.join(antdDir, 'es/index.js'), 'utf8');
  return [...barrel.matchAll(ANTD_BARREL_EXPORT)].map((m) => m[1]);
}

/**
 * antd is shared one component at a time (issue 17). Shared whole, it was one 450 KB module on every
 * page, since a shared module cannot be tree-shaken. Each entry here is one of antd's component entry
 * points (antd/es/<component>/index.js), keyed by its resolved file: module federation then matches
 * any import that resolves there, the `antd` barrel's re-exports and antd's own relative imports
 * between components alike, so code keeps writing `import { Button } from 'antd'`. A page loads only
 * the components it renders, each once whichever build asked, and since every component runs from the
 * provider's build, antd's contexts (config, theme, form, locale...) exist once: a remote's button
 * takes the shell's theme and a remote's Form.Item joins a shared-ui Form.
 */
function antdComponentShares(packageDir, requiredVersion, consumeOnly) {
  const antdDir = path.dirname(require.resolve('antd/package.json', { paths: [packageDir] }));
  const { version } = readJson(path.join(antdDir, 'package.json'));
  const shared = {};
  for (const component of antdComponents(antdDir)) {
    shared[path.join(antdDir, 'es', component, 'index.js')] = {
      shareKey: `antd/es/${component}`,
      singleton: true,
      ...(consumeOnly ? { import: false } : {}),
      requiredVersion: requiredVersion || `^${version}`,
      version,
    };
  }
  return shared;
}

/** The icon components every icon module wraps (files of @ant-design/icons, checked by antdRewrites.test.ts). */
const ICON_BASE_MODULES = ['es/components/AntdIcon.js', 'es/components/AntdIconLight.js'];

/**
 * The icon components every icon module wraps, shared like antd's components: each area's icons
 * (bundled per build, a few hundred bytes each) neither repeat them nor miss the shell's IconContext
 * (prefix, CSP nonce).
 */
function iconBaseShares(packageDir, consumeOnly) {
  const iconsDir = path.dirname(require.resolve('@ant-design/icons/package.json', { paths: [packageDir] }));
  const { version } = readJson(path.join(iconsDir, 'package.json'));
  const shared = {};
  for (const file of ICON_BASE_MODULES) {
    shared[path.join(iconsDir, file)] = {
      shareKey: `@ant-design/icons/${file.replace(/\.js$/, '')}`,
      singleton: true,
      ...(consumeOnly ? { import: false } : {}),
      requiredVersion: `^${version}`,
      version,
    };
  }
  return shared;
}

/**
 * Shared config: singleton, eager nowhere, requiredVersion from the consuming package's package.json.
 * `antdFromHost`: the build takes every antd component and the icon base from the shell, which provides
 * all of them, and carries no fallback copies (a remote in the console); a remote's standalone frame keeps its own.
 */
function sharedSingletons(packageDir, { antdFromHost = false } = {}) {
  const own = readJson(path.join(packageDir, 'package.json'));
  const declared = { ...(own.peerDependencies || {}), ...(own.dependencies || {}) };
  const shared = {
    ...antdComponentShares(packageDir, declared.antd, antdFromHost),
    ...iconBaseShares(packageDir, antdFromHost),
    ...sharedUiShares(packageDir),
  };
  for (const request of SINGLETONS) {
    const { pkgName, version } = installedVersion(request, packageDir);
    shared[request] = {
      singleton: true,
      requiredVersion: declared[pkgName] || `^${version}`,
      version,
      ...(request === 'react-router-dom' ? { import: ROUTER_SHARE } : {}),
      ...(request === '@ant-design/cssinjs' ? { import: CSSINJS_SHARE } : {}),
      ...(request === 'axios' ? { import: AXIOS_SHARE } : {}),
      ...(request === 'yup' ? { import: YUP_SHARE } : {}),
      ...(request === 'react-hook-form' ? { import: RHF_SHARE } : {}),
    };
  }
  return shared;
}

module.exports = {
  SINGLETONS,
  ROUTER_SHARE,
  CSSINJS_SHARE,
  YUP_SHARE,
  RHF_SHARE,
  formStackAliases,
  SHARED_UI_STATEFUL,
  ICON_BASE_MODULES,
  antdComponents,
  sharedSingletons,
  readJson,
};
