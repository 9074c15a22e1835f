// Precompression at build time (issue 17: bytes on the wire). Every text asset of a production build gets a
// `.br` and a `.gz` sibling written once here, at high levels, so the server only picks one by
// Accept-Encoding and never compresses a static file per request.
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { promisify } = require('node:util');

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Below this a compressed copy saves less than the headers it costs. */
const MIN_BYTES = 1024;
const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt)$/i;
/** Files compressed at once (each one's brotli and gzip run side by side). */
const PARALLEL_FILES = 3;

function filesUnder(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/** Writes `<file>.br` and `<file>.gz` beside every compressible file of `dir` (only those in `only`, a set of absolute paths, when given); returns how many files it compressed. */
async function precompressDirectory(dir, only = null) {
  const files = filesUnder(dir).filter((file) => COMPRESSIBLE.test(file) && (!only || only.has(file)));
  let compressed = 0;
  const compressOne = async (file) => {
    const content = await fs.promises.readFile(file);
    if (content.length < MIN_BYTES) return;
    const [br, gz] = await Promise.all([
      brotli(content, {
        params: {
          // 10, not 11: within 1-2 % of the smallest file at less than half the build time (11 took 3 s on a 1.4 MB chunk).
          [zlib.constants.BROTLI_PARAM_QUALITY]: 10,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      }),
      gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION }),
    ]);
    await Promise.all([fs.promises.writeFile(`${file}.br`, br), fs.promises.writeFile(`${file}.gz`, gz)]);
    compressed += 1;
  };
  // zlib compresses on libuv's thread pool: a few files at once keep every core busy (one at a time left
  // the shell's files to one core for the last 25 s of its build).
  const queue = [...files];
  await Promise.all(
    Array.from({ length: PARALLEL_FILES }, async () => {
      for (let file = queue.shift(); file !== undefined; file = queue.shift()) await compressOne(file);
    }),
  );
  return compressed;
}

/**
 * After webpack has written the build (the federation manifest included), compresses its output folder;
 * with `ownAssetsOnly`, only the files this compilation wrote (a second build sharing the folder must not
 * compress the first one's files again).
 */
class PrecompressPlugin {
  constructor({ ownAssetsOnly = false } = {}) {
    this.ownAssetsOnly = ownAssetsOnly;
  }

  apply(compiler) {
    compiler.hooks.afterEmit.tapPromise('PrecompressPlugin', async (compilation) => {
      const dir = compilation.outputOptions.path;
      const only = this.ownAssetsOnly ? new Set(compilation.getAssets().map((a) => path.join(dir, a.name))) : null;
      await precompressDirectory(dir, only);
    });
  }
}

module.exports = { PrecompressPlugin, precompressDirectory, MIN_BYTES };
