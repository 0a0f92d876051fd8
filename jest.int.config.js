// Integration and gateway contract tests on the real broker and database; run with --runInBand.
// Every service of services/manifest.json has a jest.int.config.js; the gateway's runs last.
const { loadManifest } = require('./scripts/manifest.cjs');

module.exports = {
  // Global only: jest ignores (and warns about) a testTimeout in a project's config.
  testTimeout: 60000,
  projects: [
    '<rootDir>/services/platform/jest.int.config.js',
    ...loadManifest().services.map((s) => `<rootDir>/${s.workspace}/jest.int.config.js`),
    '<rootDir>/gateway/jest.int.config.js',
  ].filter((p) => require('node:fs').existsSync(p.replace('<rootDir>', __dirname))),
};
