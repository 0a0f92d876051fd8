// Unit tests of every server-side workspace (`npx jest`); integration tests are in jest.int.config.js.
// The workspaces come from services/manifest.json.
const { serverWorkspaces } = require('./scripts/manifest.cjs');

module.exports = {
  // Global only (jest ignores a project's): a ceiling for a loaded machine, never a check of speed. jest's 5 s
  // default for a test or hook was hit by a contract spec's set-up beside the other lanes of a fresh clone.
  testTimeout: 60_000,
  projects: serverWorkspaces().map((w) => `<rootDir>/${w}`),
};
