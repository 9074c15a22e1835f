// A remote's navigation (issue 17): its routes and menu entries as data, emitted at build time beside
// mf-manifest.json as navigation.json. The shell draws the menu and knows every route from these few
// hundred bytes, and loads a remote's code (remoteEntry.js and its ./manifest) only when one of its pages
// is opened: /home no longer loads four remotes to draw its menu. src/manifest.tsx stays the one place a
// remote declares its routes; this file reads it, so the two cannot disagree.
const fs = require('node:fs');
const path = require('node:path');
const swc = require('@swc/core');

const NAVIGATION_FILE = 'navigation.json';

/** shared-ui's manifest contract: its one derivation of the menu from the routes (menuOf). */
const CONTRACT_FILE = path.resolve(__dirname, '../../shared-ui/src/federation/manifest.ts');

/** What src/manifest.tsx may import at run time: icons and nothing else (types are erased). */
const ICONS_PACKAGE = '@ant-design/icons';

/**
 * The SVG tree of one @ant-design/icons icon, as its component draws it; the shell draws it with the
 * shared icon base. Two-tone icons compute their tree from colours and cannot be written as data.
 */
function iconDefinition(name, fromDir) {
  let definition;
  try {
    definition = require(require.resolve(`@ant-design/icons-svg/lib/asn/${name}`, { paths: [fromDir] })).default;
  } catch {
    throw new Error(`navigation: ${name} is not an icon of ${ICONS_PACKAGE}`);
  }
  if (typeof definition.icon === 'function') throw new Error(`navigation: ${name} is a two-tone icon; the menu takes outlined or filled icons`);
  return definition;
}

/** Compiles a TypeScript module with swc and runs it as CommonJS, its imports answered by `load`. */
function evaluate(file, load) {
  const { code } = swc.transformSync(fs.readFileSync(file, 'utf8'), {
    filename: file,
    jsc: { parser: { syntax: 'typescript', tsx: file.endsWith('.tsx') }, transform: { react: { runtime: 'automatic' } }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', code)(module, module.exports, load);
  return module.exports;
}

/** menuOf from shared-ui's contract, which imports types only (erased), so it runs here as it is. */
function contractMenuOf() {
  return evaluate(CONTRACT_FILE, (request) => {
    throw new Error(`navigation: ${path.relative(process.cwd(), CONTRACT_FILE)} imports ${request} at run time; it may import types only`);
  }).menuOf;
}

/**
 * Evaluates a remote's manifest.tsx with stand-ins: JSX builds plain objects, each icon import is a marker
 * carrying its name, and a page import is never called. Returns the manifest's routes (without their
 * loaders and menu places) and the menu entries shared-ui's menuOf derives from them (icons as SVG trees).
 */
function navigationOf(manifestFile) {
  const element = (type, props) => ({ type, props });
  const stubs = {
    'react/jsx-runtime': { jsx: element, jsxs: element, Fragment: 'Fragment' },
    [ICONS_PACKAGE]: new Proxy({}, { get: (_target, name) => (name === '__esModule' ? false : { iconName: String(name) }) }),
  };
  const load = (request) => {
    if (request in stubs) return stubs[request];
    throw new Error(`navigation: ${path.relative(process.cwd(), manifestFile)} imports ${request}; a manifest imports icons only, pages lazily`);
  };
  const manifest = evaluate(manifestFile, load).default;
  if (!manifest || !Array.isArray(manifest.routes)) throw new Error(`navigation: ${manifestFile} exports no manifest`);
  const fromDir = path.dirname(manifestFile);
  return {
    id: manifest.id,
    routes: manifest.routes.map(({ path: routePath, title, capability }) => ({ path: routePath, title, capability })),
    menu: contractMenuOf()(manifest.routes).map((entry) => {
      const name = entry.icon && entry.icon.type && entry.icon.type.iconName;
      if (entry.icon && !name) throw new Error(`navigation: the icon of menu entry ${entry.label} is not an ${ICONS_PACKAGE} element`);
      return { ...entry, icon: name ? iconDefinition(name, fromDir) : null };
    }),
  };
}

/** Emits navigation.json from the remote's src/manifest.tsx, read anew on every compilation (watch included). */
class NavigationPlugin {
  constructor(manifestFile, version) {
    this.manifestFile = manifestFile;
    this.version = version;
  }

  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('NavigationPlugin', (compilation) => {
      compilation.fileDependencies.add(this.manifestFile);
      compilation.fileDependencies.add(CONTRACT_FILE);
      compilation.hooks.processAssets.tap({ name: 'NavigationPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        try {
          compilation.emitAsset(NAVIGATION_FILE, new sources.RawSource(JSON.stringify({ ...navigationOf(this.manifestFile), version: this.version })));
        } catch (error) {
          compilation.errors.push(new compiler.webpack.WebpackError(error instanceof Error ? error.message : String(error)));
        }
      });
    });
  }
}

module.exports = { NAVIGATION_FILE, NavigationPlugin, navigationOf };
