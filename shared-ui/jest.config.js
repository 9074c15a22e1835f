const path = require('node:path');
const preset = require('../tools/jest/preset')('shared-ui', __dirname);

module.exports = { ...preset, setupFilesAfterEnv: [...preset.setupFilesAfterEnv, path.join(__dirname, 'src/testing/jsdomSetup.ts')] };
