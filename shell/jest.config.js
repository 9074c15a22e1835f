module.exports = require('../tools/jest/preset')('shell', __dirname);
