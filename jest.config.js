// Unit tests of every server-side workspace (`npx jest`); integration tests are in jest.int.config.js.
// The workspaces come from services/manifest.json.
const { serverWorkspaces } = require('./scripts/manifest.cjs');

module.exports = { projects: serverWorkspaces().map((w) => `<rootDir>/${w}`) };
