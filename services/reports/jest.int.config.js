// Integration tests: the real broker and database, run serially.
module.exports = require('../../jest.preset.js').integration();
