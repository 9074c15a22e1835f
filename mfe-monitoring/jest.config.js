module.exports = require('../tools/jest/preset')('mfe-monitoring', __dirname);
