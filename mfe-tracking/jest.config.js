module.exports = require('../tools/jest/preset')('mfe-tracking', __dirname);
