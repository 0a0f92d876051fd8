// Unit tests of every server-side workspace (`npx jest`); integration tests are in jest.int.config.js.
module.exports = {
  projects: [
    '<rootDir>/proto',
    '<rootDir>/services/platform',
    '<rootDir>/services/users',
    '<rootDir>/services/stocks',
    '<rootDir>/gateway',
  ],
};
