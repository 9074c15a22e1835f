// antd's component styles as one static stylesheet (issue 17: the table page's blocking time on a phone).
// ConsoleProviders runs antd in zero-runtime mode, where components no longer generate and insert their
// CSS while React renders (a fifth of the table page's main-thread time under a 4x CPU slowdown, much of
// it in tasks far over 50 ms); antd's own build of that CSS, antd/dist/antd.css, which reads every
// colour and size from the CSS variables the theme still sets at run time, is served instead, without
// the rules of the components no page of the console uses.
const crypto = require('node:crypto');
const fs = require('node:fs');
const HtmlWebpackPlugin = require('html-webpack-plugin');

/**
 * antd components no page draws, directly or inside another component (antd/es/<folder>), by the class
 * their rules start with (`.ant-<root>`): a third of antd.css. shell/src/antdStylesheetCoverage.test.ts
 * fails when a package starts using one of them; take it off this list then.
 */
const OMITTED_COMPONENTS = {
  affix: 'affix',
  anchor: 'anchor',
  avatar: 'avatar',
  breadcrumb: 'breadcrumb',
  // The pickers and the calendar share one root.
  calendar: 'picker',
  'date-picker': 'picker',
  'time-picker': 'picker',
  carousel: 'carousel',
  cascader: 'cascader',
  'color-picker': 'color-picker',
  divider: 'divider',
  'float-button': 'float-btn',
  image: 'image',
  list: 'list',
  masonry: 'masonry',
  mentions: 'mentions',
  'qr-code': 'qrcode',
  rate: 'rate',
  slider: 'slider',
  splitter: 'splitter',
  steps: 'steps',
  switch: 'switch',
  timeline: 'timeline',
  tour: 'tour',
  transfer: 'transfer',
};

/**
 * Rules of antd.css no page can match: the CSS-variable defaults written for the ids of antd's own
 * server rendering (`.css-var-_R_…`: the console renders in the browser, where React's ids are `_r_…`,
 * and writes its own variables), and the style cache map only server-rendered pages read.
 */
const DEAD_SELECTOR = /^(\.css-var-_R_|\.data-ant-cssinjs-cache-path)/;

/** Top-level `prelude { body }` blocks of a stylesheet (quotes and comments respected). */
function blocksOf(css) {
  const blocks = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < css.length; i += 1) {
    const c = css[i];
    if (c === '"' || c === "'") {
      for (i += 1; i < css.length && css[i] !== c; i += 1) if (css[i] === '\\') i += 1;
    } else if (c === '/' && css[i + 1] === '*') {
      i = css.indexOf('*/', i + 2);
      if (i < 0) i = css.length;
      else i += 1;
    } else if (c === '{') {
      depth += 1;
    } else if (c === '}') {
      depth -= 1;
      if (depth === 0) {
        blocks.push(css.slice(start, i + 1));
        start = i + 1;
      }
    }
  }
  const rest = css.slice(start).trim();
  if (rest !== '') throw new Error(`antd.css: unbalanced braces near ${JSON.stringify(rest.slice(0, 80))}`);
  return blocks;
}

/** Whether a rule only styles omitted components: every selector's first antd class is one of theirs. */
function onlyOmitted(prelude, omittedRoots) {
  return prelude.split(',').every((selector) => {
    const trimmed = selector.trim();
    if (DEAD_SELECTOR.test(trimmed)) return true;
    const first = /\.ant-([a-z0-9-]+)/.exec(trimmed);
    if (!first) return false;
    const cls = first[1];
    return omittedRoots.some((root) => cls === root || cls.startsWith(`${root}-`));
  });
}

/** antd.css without the rules of `omittedRoots` (class roots) and the dead ones; @media and @supports are filtered inside. */
function filterAntdCss(css, omittedRoots = [...new Set(Object.values(OMITTED_COMPONENTS))]) {
  const kept = [];
  for (const block of blocksOf(css)) {
    const open = block.indexOf('{');
    const prelude = block.slice(0, open).trim();
    if (/^@(media|supports|container|layer)\b/.test(prelude)) {
      const inner = filterAntdCss(block.slice(open + 1, -1), omittedRoots);
      if (inner !== '') kept.push(`${prelude}{${inner}}`);
    } else if (prelude.startsWith('@') || !onlyOmitted(prelude, omittedRoots)) {
      kept.push(block.trim());
    }
  }
  return kept.join('');
}

/** The link's id: the shell applies the stylesheet through it (shell/src/antdStylesheet.ts). */
const ANTD_STYLESHEET_ID = 'cw-antd-styles';

/**
 * Emits antd.<hash>.css (immutable like every hashed file) and links it from the build's HTML page.
 * - `appliedBy: 'script'` (the console): linked with media="print", which the browser downloads without
 *   holding the first paint (the start frame) for it; the shell switches it on before its first render.
 * - `appliedBy: 'browser'` (a remote's standalone development frame): an ordinary, render-blocking link.
 */
class AntdStylesheetPlugin {
  constructor({ appliedBy }) {
    this.appliedBy = appliedBy;
  }

  apply(compiler) {
    const { RawSource } = compiler.webpack.sources;
    const source = filterAntdCss(fs.readFileSync(require.resolve('antd/dist/antd.css', { paths: [compiler.context] }), 'utf8'));
    const fileName = `antd.${crypto.createHash('sha256').update(source).digest('hex').slice(0, 8)}.css`;
    compiler.hooks.thisCompilation.tap('AntdStylesheetPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'AntdStylesheetPlugin', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        compilation.emitAsset(fileName, new RawSource(source));
      });
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap('AntdStylesheetPlugin', (groups) => {
        const publicPath = compilation.getAssetPath(compilation.outputOptions.publicPath, {});
        const attributes = { id: ANTD_STYLESHEET_ID, rel: 'stylesheet', href: `${publicPath}${fileName}` };
        if (this.appliedBy === 'script') attributes.media = 'print';
        // Before the page's scripts, so its download starts as soon as the head is read.
        groups.headTags.unshift({ tagName: 'link', voidTag: true, meta: { plugin: 'AntdStylesheetPlugin' }, attributes });
        return groups;
      });
    });
  }
}

module.exports = { AntdStylesheetPlugin, ANTD_STYLESHEET_ID, OMITTED_COMPONENTS, filterAntdCss };
