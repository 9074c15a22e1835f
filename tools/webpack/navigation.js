// A remote's navigation (issue 17): its routes and menu entries as data, emitted at build time beside
// mf-manifest.json as navigation.json. The shell draws the menu and knows every route from these few
// hundred bytes, and loads a remote's code (remoteEntry.js and its ./manifest) only when one of its pages
// is opened: /home no longer loads four remotes to draw its menu. src/manifest.tsx stays the one place a
// remote declares its routes; this file reads it, so the two cannot disagree.
const fs = require('node:fs');
const path = require('node:path');
const swc = require('@swc/core');

const NAVIGATION_FILE = 'navigation.json';

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

/**
 * Evaluates a remote's manifest.tsx with stand-ins: JSX builds plain objects, each icon import is a marker
 * carrying its name, and a page import is never called. Returns the manifest's routes (without their
 * loaders) and menu entries (icons as SVG trees).
 */
function navigationOf(manifestFile) {
  const source = fs.readFileSync(manifestFile, 'utf8');
  const { code } = swc.transformSync(source, {
    filename: manifestFile,
    jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  const element = (type, props) => ({ type, props });
  const stubs = {
    'react/jsx-runtime': { jsx: element, jsxs: element, Fragment: 'Fragment' },
    [ICONS_PACKAGE]: new Proxy({}, { get: (_target, name) => (name === '__esModule' ? false : { iconName: String(name) }) }),
  };
  const load = (request) => {
    if (request in stubs) return stubs[request];
    throw new Error(`navigation: ${path.relative(process.cwd(), manifestFile)} imports ${request}; a manifest imports icons only, pages lazily`);
  };
  const module = { exports: {} };
  new Function('module', 'exports', 'require', code)(module, module.exports, load);
  const manifest = module.exports.default;
  if (!manifest || !Array.isArray(manifest.routes) || !Array.isArray(manifest.menu)) throw new Error(`navigation: ${manifestFile} exports no manifest`);
  const fromDir = path.dirname(manifestFile);
  return {
    id: manifest.id,
    routes: manifest.routes.map(({ path: routePath, title, capability }) => ({ path: routePath, title, capability })),
    menu: manifest.menu.map(({ group, label, path: entryPath, order, capability, icon }) => {
      const name = icon && icon.type && icon.type.iconName;
      if (icon && !name) throw new Error(`navigation: the icon of menu entry ${label} is not an ${ICONS_PACKAGE} element`);
      return { group, label, path: entryPath, order, capability, icon: name ? iconDefinition(name, fromDir) : null };
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
