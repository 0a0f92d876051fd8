// Integration and gateway contract tests on the real broker and database; run with --runInBand.
// Every service of services/manifest.json has a jest.int.config.js; the gateway's runs last.
const { loadManifest } = require('./scripts/manifest.cjs');

module.exports = {
  // Global only: jest ignores (and warns about) a testTimeout in a project's config. A ceiling for a loaded
  // machine, never a check of speed (bench/ has those): every test waits on what it expects, and only one
  // that can never see it ends here. 60 s was hit by a 20 MB staged upload over Kafka (27 request/replies)
  // with the other lanes of a fresh clone's run beside it.
  testTimeout: 300_000,
  projects: [
    '<rootDir>/services/platform/jest.int.config.js',
    ...loadManifest().services.map((s) => `<rootDir>/${s.workspace}/jest.int.config.js`),
    '<rootDir>/gateway/jest.int.config.js',
  ].filter((p) => require('node:fs').existsSync(p.replace('<rootDir>', __dirname))),
};
