// Gateway contract tests: supertest against the gateway and the real services on the real broker.
module.exports = require('../jest.preset.js').integration();
