// The soak test (issue 8): `npm run test:soak -- --minutes N` builds, then tools/soak/run.js runs
// this config with SOAK_MINUTES=N. Same transform, path mapping and closing `N passed, N failed`
// line as jest.config.js; only the soak spec, alone: it measures the memory of the processes it
// starts, so nothing else may run beside it.
const base = require('./jest.config');

const minutes = Number(process.env.SOAK_MINUTES || 1);

module.exports = {
  ...base,
  roots: ['<rootDir>/tools/soak'],
  testMatch: ['**/*.soak.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  // The measured minutes, the warm-up, the drain of retries and the final checks, with a margin.
  testTimeout: (minutes * 60 + 600) * 1000,
  maxWorkers: 1,
};
