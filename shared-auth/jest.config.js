module.exports = require('../tools/jest/preset')('shared-auth', __dirname);
