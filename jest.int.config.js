// Integration and gateway contract tests on the real broker and database; run with --runInBand.
module.exports = {
  projects: [
    '<rootDir>/services/platform/jest.int.config.js',
    '<rootDir>/services/users/jest.int.config.js',
    '<rootDir>/services/stocks/jest.int.config.js',
    '<rootDir>/gateway/jest.int.config.js',
  ],
};
