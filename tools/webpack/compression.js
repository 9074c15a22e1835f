// Precompression at build time (issue 17: bytes on the wire), by compression-webpack-plugin: every text
// asset of a production build gets a `.br` and a `.gz` sibling written once, at high levels, so the
// server only picks one by Accept-Encoding (api/src/web/frontends.ts, fastify-static's preCompressed)
// and never compresses a static file per request.
const zlib = require('node:zlib');
const CompressionPlugin = require('compression-webpack-plugin');

/** Below this a compressed copy saves less than the headers it costs. */
const MIN_BYTES = 1024;
const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt)$/i;

/**
 * The two plugins of a production build. `minRatio: Infinity`: every file over MIN_BYTES gets both
 * copies, however little it shrinks, so the server's choice depends on the browser alone.
 */
function compressionPlugins() {
  const common = { test: COMPRESSIBLE, threshold: MIN_BYTES, minRatio: Infinity };
  return [
    new CompressionPlugin({
      ...common,
      algorithm: 'brotliCompress',
      filename: '[path][base].br',
      compressionOptions: {
        params: {
          // 10, not 11: within 1-2 % of the smallest file at less than half the build time (11 took 3 s on a 1.4 MB chunk).
          [zlib.constants.BROTLI_PARAM_QUALITY]: 10,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        },
      },
    }),
    new CompressionPlugin({ ...common, algorithm: 'gzip', filename: '[path][base].gz', compressionOptions: { level: zlib.constants.Z_BEST_COMPRESSION } }),
  ];
}

/**
 * Writes `files` (name → content) into `outputDir` through a webpack compilation with the build's
 * compression plugins, as a production build writes its assets: the API's tests serve what this writes.
 */
function emitCompressed(outputDir, files) {
  const webpack = require('webpack');
  const emitFiles = {
    apply(compiler) {
      compiler.hooks.thisCompilation.tap('EmitFiles', (compilation) => {
        compilation.hooks.processAssets.tap({ name: 'EmitFiles', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
          for (const [name, content] of Object.entries(files)) compilation.emitAsset(name, new webpack.sources.RawSource(content));
        });
      });
    },
  };
  const compiler = webpack({
    mode: 'production',
    context: outputDir,
    entry: {},
    output: { path: outputDir, clean: false },
    // The files are the build's output already: nothing to minify.
    optimization: { minimize: false },
    plugins: [emitFiles, ...compressionPlugins()],
  });
  return new Promise((resolve, reject) => {
    compiler.run((error, stats) => {
      compiler.close(() => undefined);
      if (error) reject(error);
      else if (stats.hasErrors()) reject(new Error(stats.toString('errors-only')));
      else resolve(Object.keys(stats.compilation.assets).filter((name) => /\.(br|gz)$/.test(name)));
    });
  });
}

module.exports = { compressionPlugins, emitCompressed, MIN_BYTES, COMPRESSIBLE };
