const { createHostConfig } = require('../tools/webpack');

// The console, and the signed-out pages (/auth/*) as their own small entry beside it.
module.exports = (env, argv) => createHostConfig({ packageDir: __dirname, signedOutEntry: './src/signin/index.tsx' }, env, argv);
