module.exports = require('../tools/jest/preset')('shared-ui', __dirname);
