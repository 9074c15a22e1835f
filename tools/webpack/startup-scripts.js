const HtmlWebpackPlugin = require('html-webpack-plugin');

/**
 * The chunks a console page cannot draw without, listed in its HTML as deferred scripts (issue 17).
 *
 * The shell's start (main.js) used to load them itself: the federation runtime resolves each shared
 * module the bootstrap imports (React, antd, shared-ui...) and webpack inserts one script tag per chunk,
 * 23 on every page, in the start's first task and one network round trip after main.js. Listed in the
 * page, the browser fetches them while it reads the HTML, runs each as a small task of its own (a chunk
 * only registers its modules), and webpack finds them installed: the start inserts none of them.
 *
 * Which chunks: those of the `bootstrap` chunk group (the async boundary of src/index.ts) and, following
 * the federation's consume-shared modules in them, the chunks each consumed module's own copy loads
 * (the shell provides every shared module, and it is loaded first), until nothing new is reached. Only
 * chunks the start loads on every page are reached: a route's page is behind a lazy import, which is not
 * followed, so no page gets a byte it did not load before.
 */
function startupChunks(compilation, bootstrapGroupName) {
  const group = compilation.namedChunkGroups.get(bootstrapGroupName);
  if (!group) throw new Error(`StartupScriptsPlugin: no chunk group named '${bootstrapGroupName}' (webpackChunkName of the bootstrap import)`);
  const { chunkGraph } = compilation;
  const reached = new Set();
  const queue = [...group.chunks];
  while (queue.length > 0) {
    const chunk = queue.shift();
    if (reached.has(chunk)) continue;
    reached.add(chunk);
    for (const module of chunkGraph.getChunkModulesIterable(chunk)) {
      if (module.type !== 'consume-shared-module') continue;
      for (const block of module.blocks) {
        const consumed = chunkGraph.getBlockChunkGroup(block);
        if (consumed) queue.push(...consumed.chunks);
      }
    }
  }
  return [...reached];
}

class StartupScriptsPlugin {
  constructor({ bootstrapGroupName = 'bootstrap' } = {}) {
    this.bootstrapGroupName = bootstrapGroupName;
  }

  apply(compiler) {
    compiler.hooks.thisCompilation.tap('StartupScriptsPlugin', (compilation) => {
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap('StartupScriptsPlugin', (groups) => {
        const publicPath = compilation.getAssetPath(compilation.outputOptions.publicPath, {});
        const files = startupChunks(compilation, this.bootstrapGroupName)
          .flatMap((chunk) => [...chunk.files].filter((file) => file.endsWith('.js')))
          .sort();
        // Before main.js: a deferred script runs in document order, so every chunk has registered its
        // modules when the runtime starts (webpack also takes chunks that arrive after it).
        const entryAt = groups.headTags.findIndex((tag) => tag.tagName === 'script');
        const tags = files.map((file) => ({
          tagName: 'script',
          voidTag: false,
          meta: { plugin: 'StartupScriptsPlugin' },
          attributes: { defer: true, src: `${publicPath}${file}` },
        }));
        groups.headTags.splice(entryAt < 0 ? groups.headTags.length : entryAt, 0, ...tags);
        return groups;
      });
    });
  }
}

module.exports = { StartupScriptsPlugin };
