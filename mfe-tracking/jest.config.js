const path = require('node:path');

// Expected dates in the tests are written for UTC; workers inherit this.
process.env.TZ = 'UTC';
const preset = require('../tools/jest/preset')('mfe-tracking', __dirname);

// The pages render antd tables and dialogs: the same jsdom additions as shared-ui's own tests.
module.exports = { ...preset, setupFilesAfterEnv: [...preset.setupFilesAfterEnv, path.join(__dirname, '../shared-ui/src/testing/jsdomSetup.ts')] };
