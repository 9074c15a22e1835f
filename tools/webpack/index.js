// The one place every webpack config (shell and remotes) gets its setup from, so the singleton list,
// loaders and output conventions cannot drift between areas. Each file beside it has one job:
// sharing.js (what exists once per page), antd-rewrites.js (antd's build-time import rewrites),
// chunks.js (the shell's chunking), configs.js (the configs), compression.js (the .br/.gz copies).
const path = require('node:path');
const { SINGLETONS, ROUTER_SHARE, CSSINJS_SHARE, YUP_SHARE, RHF_SHARE, SHARED_UI_STATEFUL, sharedSingletons } = require('./sharing');
const { SIGNED_OUT_PAGES, createRemoteConfig, createHostConfig } = require('./configs');

const repoRoot = path.resolve(__dirname, '../..');

module.exports = {
  SINGLETONS,
  ROUTER_SHARE,
  CSSINJS_SHARE,
  YUP_SHARE,
  RHF_SHARE,
  SHARED_UI_STATEFUL,
  SIGNED_OUT_PAGES,
  sharedSingletons,
  createRemoteConfig,
  createHostConfig,
  repoRoot,
};
