// The reliability suite: load with crashes, notifier chaos, fuzzing and a secret scan, against the
// built apps as real processes (`npm run test:reliability` builds first). Same transform, path
// mapping and closing `N passed, N failed` line as jest.config.js; only the reliability specs.
// One spec at a time: each drives server processes hard, and the machine has two cores.
const base = require('./jest.config');

module.exports = {
  ...base,
  roots: ['<rootDir>/tools/reliability'],
  testMatch: ['**/*.reliability.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 300_000,
  maxWorkers: 1,
};
