// antd's style generators, which zero-runtime antd never calls, left out of the browser builds.
//
// ConsoleProviders runs antd in zero-runtime mode (every console page, and the remotes' standalone
// frames, render inside it): a component's style hook then returns at once and its rules come from the
// static stylesheet (antd-stylesheet.js). What still runs is each component's token preparation (its CSS
// variables). The functions that would write a component's rules (`genStyleHooks(name, styleFn, …)`:
// the table's alone are 21 KB of minified code) were still bundled with every component a page draws,
// with the style helpers and motion keyframes they call. This loader hands each of those calls a style
// function that writes nothing, so webpack and the minifier drop the real one and what only it used.
const path = require('node:path');

// The parser webpack itself parses with (a dependency of webpack, resolved from there).
const acorn = require(require.resolve('acorn', { paths: [path.dirname(require.resolve('webpack/package.json'))] }));

/** antd's style-hook factories (antd/es/theme/util/genStyleUtils.js): their second argument writes the rules. */
const STYLE_HOOK_FACTORIES = new Set(['genStyleHooks', 'genComponentStyleHook', 'genSubStyleComponent']);

/** What genStyleUtils is configured with that only a run-time style calls (the reset and common rules). */
const RUNTIME_STYLE_OPTIONS = new Set(['getResetStyles', 'getCommonStyle']);

const NO_RULES = '() => []';

/** Every node of an ESTree, depth first. */
function* nodesOf(node) {
  if (!node || typeof node.type !== 'string') return;
  yield node;
  for (const key of Object.keys(node)) {
    const value = node[key];
    if (Array.isArray(value)) for (const child of value) yield* nodesOf(child);
    else if (value && typeof value === 'object') yield* nodesOf(value);
  }
}

/** The source ranges of one antd module to replace, and with what. */
function runtimeStyleRanges(source) {
  const ranges = [];
  const program = acorn.parse(source, { ecmaVersion: 'latest', sourceType: 'module' });
  for (const node of nodesOf(program)) {
    if (node.type !== 'CallExpression' || node.callee.type !== 'Identifier') continue;
    const [, styleFn] = node.arguments;
    if (STYLE_HOOK_FACTORIES.has(node.callee.name) && styleFn) ranges.push({ start: styleFn.start, end: styleFn.end, text: NO_RULES });
    if (node.callee.name === 'genStyleUtils' && node.arguments[0]?.type === 'ObjectExpression') {
      for (const property of node.arguments[0].properties) {
        if (property.type === 'Property' && property.key.type === 'Identifier' && RUNTIME_STYLE_OPTIONS.has(property.key.name)) {
          ranges.push({ start: property.value.start, end: property.value.end, text: 'undefined' });
        }
      }
    }
  }
  return ranges;
}

/** antd's module with its run-time style functions replaced (a range inside one already replaced goes with it). */
function withoutRuntimeStyles(source) {
  if (![...STYLE_HOOK_FACTORIES, 'genStyleUtils'].some((name) => source.includes(`${name}(`))) return source;
  let out = source;
  let replacedFrom = Infinity;
  for (const { start, end, text } of runtimeStyleRanges(source).sort((a, b) => b.end - a.end || a.start - b.start)) {
    if (end > replacedFrom) continue;
    out = out.slice(0, start) + text + out.slice(end);
    replacedFrom = start;
  }
  return out;
}

/** The webpack loader (applied to antd's ES modules by antdZeroRuntimeRule). */
function antdZeroRuntimeLoader(source) {
  return withoutRuntimeStyles(source);
}

/** The module rule of every browser build. */
function antdZeroRuntimeRule() {
  return { test: /[\\/]node_modules[\\/]antd[\\/]es[\\/].*\.js$/, loader: __filename };
}

module.exports = antdZeroRuntimeLoader;
module.exports.antdZeroRuntimeRule = antdZeroRuntimeRule;
module.exports.withoutRuntimeStyles = withoutRuntimeStyles;
