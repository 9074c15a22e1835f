// The webpack configs of the shell (host and signed-out pages) and of each remote, built from the
// sharing rules (sharing.js), antd's build-time rewrites (antd-rewrites.js, antd-zero-runtime.js), the
// shell's chunking (chunks.js) and the build-time plugins beside them.
const path = require('node:path');
const fs = require('node:fs');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const TerserPlugin = require('terser-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { compressionPlugins } = require('./compression');
const { AntdStylesheetPlugin } = require('./antd-stylesheet');
const { StartupScriptsPlugin } = require('./startup-scripts');
const { NavigationPlugin } = require('./navigation');
const { antdZeroRuntimeRule } = require('./antd-zero-runtime');
const { AntdImportsPlugin, sideEffectFreeRule } = require('./antd-rewrites');
const { AxiosXhrOnlyPlugin } = require('./axios');
const { hostSplitChunks } = require('./chunks');
const { sharedSingletons, readJson, formStackAliases } = require('./sharing');

/** The federation runtime without its Node.js code paths: the console only ever runs in a browser. */
const BROWSER_ONLY = { target: 'web' };

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
    // antd's and rc-component's modules that only define things: webpack may drop the unused ones (antd-rewrites.js).
    sideEffectFreeRule(),
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
      alias: formStackAliases(),
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
    config.plugins.push(...compressionPlugins(), new MenuIconsStubPlugin(path.join(packageDir, 'src/manifest.tsx')));
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
  if (production) config.plugins.push(...compressionPlugins());
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
  config.optimization.splitChunks = hostSplitChunks();
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
  if (mode === 'production') config.plugins.push(...compressionPlugins());
  if (mode === 'development') {
    const historyFallback = signedOutEntry ? { rewrites: [{ from: SIGNED_OUT_PAGES, to: '/auth.html' }] } : true;
    config.devServer = devServer({ port: pkg.config.devPort, apiPort: Number(process.env.PORT || 8080), historyFallback });
  }
  if (!signedOutEntry) return config;
  config.name = 'shell';
  return [config, createSignedOutConfig({ packageDir, entry: signedOutEntry }, mode)];
}

module.exports = { SIGNED_OUT_PAGES, createRemoteConfig, createHostConfig };
