// The one place every webpack config (shell and remotes) gets its module federation setup from,
// so the singleton list, loaders and output conventions cannot drift between areas.
const path = require('node:path');
const fs = require('node:fs');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const TerserPlugin = require('terser-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { PrecompressPlugin } = require('./precompress');
const { AntdStylesheetPlugin } = require('./antd-stylesheet');
const { StartupScriptsPlugin } = require('./startup-scripts');
const { NavigationPlugin } = require('./navigation');
const { antdZeroRuntimeRule } = require('./antd-zero-runtime');

const repoRoot = path.resolve(__dirname, '../..');

/**
 * An HTML page from a static template. html-webpack-plugin compiles a `template` file in a child
 * compilation that inherits the parent's plugins: under module federation that child built every
 * shared module again (93 CommonJS chunks, 12 MB, minified, in the shell's dist and loaded by nothing).
 * Given the page as `templateContent` it compiles nothing.
 */
function htmlPage(templateFile, { replace = {}, ...options } = {}) {
  let templateContent = fs.readFileSync(templateFile, 'utf8');
  for (const [from, to] of Object.entries(replace)) templateContent = templateContent.replace(from, to);
  return new HtmlWebpackPlugin({ ...options, templateContent });
}

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
];

const { AXIOS_SHARE, AxiosXhrOnlyPlugin } = require('./axios');

/** The module shared as 'react-router-dom': the names the console uses, so the shared router is tree-shaken. */
const ROUTER_SHARE = path.join(__dirname, 'react-router-dom.js');

/** The module shared as '@ant-design/cssinjs': the names antd and its helpers import, so the rest is left out. */
const CSSINJS_SHARE = path.join(__dirname, 'cssinjs.js');

/** The federation runtime without its Node.js code paths: the console only ever runs in a browser. */
const BROWSER_ONLY = { target: 'web' };

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** Version of an installed package, read from its own package.json (subpaths use their package's). */
function installedVersion(request, fromDir) {
  const pkgName = request.startsWith('@') ? request.split('/').slice(0, 2).join('/') : request.split('/')[0];
  const pkgJson = require.resolve(`${pkgName}/package.json`, { paths: [fromDir] });
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
  const barrel = fs.readFileSync(path.join(antdDir, 'es/index.js'), 'utf8');
  const components = [...barrel.matchAll(/from '\.\/([a-z-]+)'/g)].map((m) => m[1]);
  const shared = {};
  for (const component of components) {
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

/**
 * The icon components every icon module wraps, shared like antd's components: each area's icons
 * (bundled per build, a few hundred bytes each) neither repeat them nor miss the shell's IconContext
 * (prefix, CSP nonce).
 */
function iconBaseShares(packageDir, consumeOnly) {
  const iconsDir = path.dirname(require.resolve('@ant-design/icons/package.json', { paths: [packageDir] }));
  const { version } = readJson(path.join(iconsDir, 'package.json'));
  const shared = {};
  for (const component of ['AntdIcon', 'AntdIconLight']) {
    shared[path.join(iconsDir, `es/components/${component}.js`)] = {
      shareKey: `@ant-design/icons/es/components/${component}`,
      singleton: true,
      ...(consumeOnly ? { import: false } : {}),
      requiredVersion: `^${version}`,
      version,
    };
  }
  return shared;
}

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
 * - the hooks antd's App calls on every page for `App.useApp()`: modal (Modal, with Skeleton and the
 *   dialog: ≈ 12 KB gz), notification (the toasts, ≈ 8.5 KB) and message (never used), each loaded the
 *   first time a page calls it.
 */
const HELPER_IMPORTS = [
  { request: /[\\/]color-picker[\\/]components[\\/]ColorPresets$/, from: /[\\/]antd[\\/]es[\\/](button|tag)[\\/]style$/ },
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
  { request: /^scroll-into-view-if-needed$/, from: /[\\/]antd[\\/]es[\\/]form[\\/]hooks$/, to: 'scrollIntoView.ts' },
];

/** In a remote's production build, `src/manifest.tsx` takes its menu icons from menu-icons-stub.js: they are build-time data (navigation.json). */
class MenuIconsStubPlugin {
  constructor(manifestFile) {
    this.manifestFile = manifestFile;
  }

  apply(compiler) {
    new compiler.webpack.NormalModuleReplacementPlugin(/^@ant-design\/icons$/, (resolveData) => {
      if (resolveData.contextInfo.issuer === this.manifestFile) resolveData.request = path.join(__dirname, 'menu-icons-stub.js');
    }).apply(compiler);
  }
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
        if (from.test(resolveData.context)) resolveData.request = path.join(repoRoot, 'shared-ui/src/antdOnDemand', resolveData.request.replace(request, to));
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
    };
  }
  return shared;
}

function scriptRules() {
  return [
    {
      test: /\.(ts|tsx|js|jsx)$/,
      exclude: /node_modules/,
      use: {
        loader: 'swc-loader',
        options: {
          jsc: {
            target: 'es2022',
            parser: { syntax: 'typescript', tsx: true },
            transform: { react: { runtime: 'automatic' } },
          },
        },
      },
    },
    {
      // These @rc-component packages declare no sideEffects, so whatever imported any of their
      // modules got all that module imports, unused or not:
      // - form: its barrel (Form, Field, List, useForm and the validator, ≈ 13 KB gz) came with every
      //   antd overlay (antd's form context wants only FormProvider, through ContextIsolator);
      // - color-picker: antd's Button and Tag style tokens want only its Color class, and its barrel
      //   brought the whole picker (palette, sliders, gradient: 3.5 KB gz) to every page with a button;
      // - tree: antd's Table wants four tree-walking helpers from its barrel for row selection, which
      //   brought the Tree component and the virtual list under it (≈ 17 KB gz) to every table page;
      // - table: antd's Table takes genTable and genVirtualTable from its barrel, which names the
      //   virtual table (and the virtual list) whether the table is virtual or not.
      // Their modules only define things (components, contexts, helpers), as do the two scroll helpers
      // antd's form hooks import (the form barrel's only code is the default export's statics, which
      // named imports never need), so webpack may drop the unused ones.
      test: /[\\/]node_modules[\\/](@rc-component[\\/](form|color-picker|tree|table)[\\/]es|scroll-into-view-if-needed|compute-scroll-into-view)[\\/]/,
      sideEffects: false,
    },
    antdZeroRuntimeRule(),
  ];
}

function baseConfig({ packageDir, mode }) {
  const production = mode === 'production';
  return {
    mode,
    context: packageDir,
    // Maps are written beside the build but not referenced from it; the server refuses to serve them.
    devtool: production ? 'hidden-source-map' : 'eval-cheap-module-source-map',
    resolve: {
      extensions: ['.tsx', '.ts', '.js', '.jsx', '.json'],
      // Workspace packages are consumed from source so a change in shared-ui shows up without a build step.
      conditionNames: ['cellwise-source', 'browser', 'import', 'require', 'module', 'webpack', 'default'],
    },
    module: { rules: scriptRules() },
    output: {
      path: path.join(packageDir, 'dist'),
      publicPath: 'auto',
      // fullhash: the federation runtime renders entry names outside a chunk's context, where content hashes are unknown.
      filename: production ? '[name].[fullhash:8].js' : '[name].js',
      chunkFilename: production ? '[name].[contenthash:8].js' : '[name].js',
      clean: true,
    },
    // swc minifies several times faster than terser; builds run on 2 cores in CI. `parallel: false`: the
    // plugin's worker processes are capped at cores − 1 (one here) and get one file at a time, while in
    // this process every file's swc minify runs on libuv's thread pool at once, with no copying through
    // a pipe.
    optimization: { minimizer: [new TerserPlugin({ minify: TerserPlugin.swcMinify, extractComments: false, parallel: false })] },
    performance: { hints: false },
    stats: 'errors-warnings',
    infrastructureLogging: { level: 'warn' },
  };
}

function devServer({ port, apiPort, historyFallback }) {
  return {
    port,
    hot: true,
    historyApiFallback: historyFallback,
    headers: { 'Access-Control-Allow-Origin': '*' },
    proxy: [{ context: ['/api', '/config'], target: `http://127.0.0.1:${apiPort}`, ws: true }],
    client: { overlay: { warnings: false } },
  };
}

/**
 * A remote exposes exactly one module, `./manifest`, and its navigation as data (navigation.json, read
 * from the manifest at build time). In development it also gets a standalone page (src/standalone.tsx)
 * so a team can run its area alone.
 */
function createRemoteConfig({ packageDir, name }, _env = {}, argv = {}) {
  const mode = argv.mode || 'production';
  const pkg = readJson(path.join(packageDir, 'package.json'));
  const dev = mode === 'development';
  const config = baseConfig({ packageDir, mode });
  config.entry = dev ? { standalone: './src/standalone.tsx' } : {};
  config.plugins = [
    new ModuleFederationPlugin({
      name,
      filename: 'remoteEntry.js',
      exposes: { './manifest': './src/manifest.tsx' },
      shared: sharedSingletons(packageDir, { antdFromHost: !dev }),
      shareStrategy: 'loaded-first',
      manifest: true,
      dts: false,
      // In the console the shell provides the federation runtime, so a remote entry does not ship
      // its own copy (about 25 KB gz per remote). The standalone dev frame is its own host and keeps it.
      experiments: dev ? {} : { externalRuntime: true, optimization: BROWSER_ONLY },
    }),
    // The shell draws the menu and routes from this, and loads the remote's code when a page is opened.
    // Its version (a release may stamp another: scripts/release-remote.mjs) tells which release the console runs.
    new NavigationPlugin(path.join(packageDir, 'src/manifest.tsx'), process.env.CELLWISE_RELEASE_VERSION || pkg.version),
    new AntdImportsPlugin(),
    new AxiosXhrOnlyPlugin(),
  ];
  if (!dev) {
    config.plugins.push(new PrecompressPlugin(), new MenuIconsStubPlugin(path.join(packageDir, 'src/manifest.tsx')));
  }
  if (dev) {
    // Absolute in development: the standalone page is served at deep paths, and the shell's dev server loads it cross-origin.
    config.output.publicPath = `http://localhost:${pkg.config.devPort}/`;
    config.plugins.push(
      htmlPage(path.join(__dirname, 'standalone.html'), { replace: { '<title></title>': `<title>${pkg.name} (standalone)</title>` }, chunks: ['standalone'] }),
      // The frame mounts ConsoleProviders (zero-runtime antd) without the shell: antd's styles come from here.
      new AntdStylesheetPlugin({ appliedBy: 'browser' }),
    );
    config.devServer = devServer({ port: pkg.config.devPort, apiPort: Number(process.env.PORT || 8080), historyFallback: true });
  }
  return config;
}

/**
 * What nearly every antd component needs (the config and theme machinery, style utilities, motion,
 * popups, the icon base), as one chunk of the shell. Left to the defaults, webpack copied each of these
 * small modules into every component's chunk: 40 % of /home's antd bytes were such copies.
 */
const ANTD_FOUNDATION_CHUNK = {
  test: /[\\/]node_modules[\\/](antd[\\/]es[\\/](_util|style|config-provider|locale|theme|grid|tooltip|layout[\\/](Sider|context|style)|menu[\\/]OverrideContext|color-picker[\\/](color|util|components[\\/]ColorPresets)|(calendar|date-picker|time-picker)[\\/]locale|space[\\/](Compact|style[\\/]compact)|form[\\/](context|hooks[\\/]useVariants))|@ant-design[\\/](cssinjs-utils|fast-color|colors|icons[\\/]es[\\/](components|utils))|@rc-component[\\/](util|motion|resize-observer|portal|trigger|overflow|tooltip|color-picker[\\/]es[\\/]color|(pagination|picker)[\\/]es[\\/]locale|form[\\/]es[\\/]FormContext)|clsx|react-is|is-mobile|@babel[\\/]runtime)[\\/.]/,
  name: 'antd-foundation',
  chunks: 'async',
  enforce: true,
  priority: 10,
};

/**
 * Icons that more than one of the shell's chunks draw (the loading spinner, clear and close crosses,
 * arrows), once: left to the defaults each component's chunk carried its own copy, up to six of the
 * same icon on a table page.
 */
const ANTD_SHARED_ICONS_CHUNK = {
  test: /[\\/]node_modules[\\/]@ant-design[\\/](icons[\\/]es[\\/](icons|renderUtils|cssUtils)|icons-svg[\\/]es[\\/]asn)[\\/.]/,
  minChunks: 2,
  name: 'antd-shared-icons',
  chunks: 'async',
  enforce: true,
  priority: 5,
};

/**
 * React, its DOM renderer, scheduler and JSX runtime, the router and the store: every console page
 * needs all of them before its first render, and left to the defaults each was a chunk of its own (one
 * of 3 KB, one of 0.7 KB...). Each chunk is a script tag the shell inserts during its first task, and
 * inserting 27 of them was a third of that task (issue 17: blocking time on a phone). One chunk costs
 * no byte more: no page loads any of them without the others.
 */
const REACT_CORE_CHUNK = {
  test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|zustand)[\\/]/,
  name: 'react-core',
  chunks: 'async',
  enforce: true,
  priority: 20,
};

/** The signed-out pages' addresses: the server and the dev server answer them with auth.html. */
const SIGNED_OUT_PAGES = /^\/auth(\/|$)/i;

/**
 * The signed-out pages (issue 17: login <= 150 KB): their own entry, built into the shell's dist beside
 * the console as auth.html, with no federation plugin, so the page carries plain React and its own
 * code only. Built after the host (its output folder is the host's, which the host cleans).
 */
function createSignedOutConfig({ packageDir, entry }, mode) {
  const production = mode === 'production';
  const config = baseConfig({ packageDir, mode });
  config.name = 'signed-out';
  config.dependencies = ['shell'];
  config.entry = { signin: entry };
  config.output = {
    ...config.output,
    publicPath: '/',
    filename: production ? '[name].[contenthash:8].js' : '[name].js',
    cssFilename: production ? '[name].[contenthash:8].css' : '[name].css',
    clean: false,
  };
  // Native CSS: one small stylesheet, linked from auth.html, with no loader packages.
  config.experiments = { css: true };
  config.plugins = [
    // The console's own page skeleton (an empty #root): only the scripts differ.
    htmlPage(path.join(packageDir, 'src/index.html'), { filename: 'auth.html', favicon: path.join(packageDir, 'src/assets/favicon.svg') }),
  ];
  if (production) config.plugins.push(new PrecompressPlugin({ ownAssetsOnly: true }));
  return config;
}

/**
 * The shell: the host. It declares no remotes at build time; it registers them from /config/remotes.json.
 * With `signedOutEntry` it is a multi-config: the host plus the signed-out pages' own entry.
 */
function createHostConfig({ packageDir, signedOutEntry }, _env = {}, argv = {}) {
  const mode = argv.mode || 'production';
  const pkg = readJson(path.join(packageDir, 'package.json'));
  const config = baseConfig({ packageDir, mode });
  config.entry = { main: './src/index.ts' };
  config.output.publicPath = '/';
  config.optimization.splitChunks = {
    cacheGroups: { reactCore: REACT_CORE_CHUNK, antdFoundation: ANTD_FOUNDATION_CHUNK, antdSharedIcons: ANTD_SHARED_ICONS_CHUNK },
  };
  config.plugins = [
    new ModuleFederationPlugin({
      name: 'shell',
      remotes: {},
      shared: sharedSingletons(packageDir),
      shareStrategy: 'loaded-first',
      runtimePlugins: [path.join(packageDir, 'src/federation/runtimePlugin.ts')],
      dts: false,
      experiments: { provideExternalRuntime: true, optimization: BROWSER_ONLY },
    }),
    htmlPage(path.join(packageDir, 'src/index.html'), {
      favicon: path.join(packageDir, 'src/assets/favicon.svg'),
      // The console's page (not auth.html) opens with its start frame, which the shell removes once it draws.
      replace: { '<div id="root"></div>': `${fs.readFileSync(path.join(packageDir, 'src/boot-frame.html'), 'utf8')}<div id="root"></div>` },
      // html-webpack-plugin's production minification, keeping the comment the server writes the page's title over.
      minify:
        mode === 'production'
          ? {
              collapseWhitespace: true,
              keepClosingSlash: true,
              removeComments: true,
              ignoreCustomComments: [/^cw-page-title$/],
              removeRedundantAttributes: true,
              removeScriptTypeAttributes: true,
              removeStyleLinkTypeAttributes: true,
              useShortDoctype: true,
            }
          : false,
    }),
    new AntdImportsPlugin(),
    new AxiosXhrOnlyPlugin(),
    new AntdStylesheetPlugin({ appliedBy: 'script' }),
    new StartupScriptsPlugin(),
  ];
  if (mode === 'production') config.plugins.push(new PrecompressPlugin());
  if (mode === 'development') {
    const historyFallback = signedOutEntry ? { rewrites: [{ from: SIGNED_OUT_PAGES, to: '/auth.html' }] } : true;
    config.devServer = devServer({ port: pkg.config.devPort, apiPort: Number(process.env.PORT || 8080), historyFallback });
  }
  if (!signedOutEntry) return config;
  config.name = 'shell';
  return [config, createSignedOutConfig({ packageDir, entry: signedOutEntry }, mode)];
}

module.exports = {
  SINGLETONS,
  ROUTER_SHARE,
  CSSINJS_SHARE,
  SHARED_UI_STATEFUL,
  SIGNED_OUT_PAGES,
  sharedSingletons,
  createRemoteConfig,
  createHostConfig,
  repoRoot,
};
