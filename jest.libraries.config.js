// The libraries' packages as another app installs them (tools/libraries): packs them, installs the
// packed files into a folder outside the repository (better-sqlite3 builds from source there, about
// two minutes), type-checks and runs examples/internal-app against the built API and notifier.
// Its own step in CI, not part of `npm test`; `npm run test:libraries` builds first.
const base = require('./jest.config');

module.exports = {
  ...base,
  roots: ['<rootDir>/tools/libraries'],
  testMatch: ['**/*.libraries.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 120_000,
  maxWorkers: 1,
};
