// The browser suite: the built service (API, notifier, a webhook receiver) driven through Debian's
// chromium by playwright-core (`npm run test:browser` builds first). Same transform, path mapping and
// closing `N passed, N failed` line as jest.config.js; only the *.browser.spec.ts files, one at a time.
const base = require('./jest.config');

module.exports = {
  ...base,
  roots: ['<rootDir>/apps/dashboard'],
  testMatch: ['**/*.browser.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 60_000,
  maxWorkers: 1,
};
