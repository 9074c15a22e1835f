module.exports = require('../tools/jest/preset')('mfe-planning-validation', __dirname);
