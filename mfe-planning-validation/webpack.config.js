const { createRemoteConfig } = require('../tools/webpack');

module.exports = (env, argv) => createRemoteConfig({ packageDir: __dirname, name: 'mfe_planning_validation' }, env, argv);
