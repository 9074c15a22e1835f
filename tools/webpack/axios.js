// How the browser builds take axios (shared-auth's HTTP client).
const path = require('node:path');

const axiosDir = path.dirname(require.resolve('axios/package.json'));

/**
 * The module shared as 'axios': its ES sources (`index.js`). Resolved for a shared module, the package's
 * exports map hands webpack the prebuilt CommonJS bundle (`dist/browser/axios.cjs`), which webpack can
 * neither concatenate nor trim.
 */
const AXIOS_SHARE = path.join(axiosDir, 'index.js');

/**
 * The console's client runs on axios's XMLHttpRequest adapter only (shared-auth/src/apiClient.ts sets
 * `adapter: 'xhr'`: uploads report progress through it). Its fetch adapter, about 4 KB gz that no call
 * would ever run, becomes a module that says fetch is not there; asking for it would fail loudly with
 * axios's own "adapter not available" error.
 */
class AxiosXhrOnlyPlugin {
  apply(compiler) {
    const fetchAdapter = path.join(axiosDir, 'lib/adapters/fetch.js');
    new compiler.webpack.NormalModuleReplacementPlugin(/[\\/]fetch\.js$/, (resolveData) => {
      if (path.join(resolveData.context, resolveData.request) === fetchAdapter) resolveData.request = path.join(__dirname, 'axios-no-fetch.js');
    }).apply(compiler);
  }
}

module.exports = { AXIOS_SHARE, AxiosXhrOnlyPlugin };
