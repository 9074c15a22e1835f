module.exports = require('../tools/jest/preset')('mfe-management', __dirname);
