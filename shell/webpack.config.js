const { createHostConfig } = require('../tools/webpack');

module.exports = (env, argv) => createHostConfig({ packageDir: __dirname }, env, argv);
