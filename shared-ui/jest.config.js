const path = require('node:path');

// Expected dates in the tests are written for UTC; workers inherit this.
process.env.TZ = 'UTC';
const preset = require('../tools/jest/preset')('shared-ui', __dirname);

module.exports = { ...preset, setupFilesAfterEnv: [...preset.setupFilesAfterEnv, path.join(__dirname, 'src/testing/jsdomSetup.ts')] };
