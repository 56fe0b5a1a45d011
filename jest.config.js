// One Jest run for the whole workspace: unit specs next to the code, and e2e specs that start the
// built apps as real child processes (they need `npm run build` first; `npm test` does that).
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias.replace(/[/]/g, '\\/')}$`] = `<rootDir>/${target}`;
}

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
  testMatch: ['**/*.spec.ts'],
  // The reliability suite (load, chaos, fuzz) runs on its own: `npm run test:reliability`; so do
  // the soak (`npm run test:soak`), the browser suite (`npm run test:browser`) and the packed
  // libraries (`npm run test:libraries`).
  testPathIgnorePatterns: [
    '/node_modules/',
    '\\.reliability\\.spec\\.ts$',
    '\\.soak\\.spec\\.ts$',
    '\\.browser\\.spec\\.ts$',
    '\\.libraries\\.spec\\.ts$',
  ],
  moduleNameMapper,
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  testTimeout: 60000,
  // Two workers on this two-core machine: most of an e2e spec's time is spent waiting on the
  // processes it started (retries, timeouts, a receiver that is down), so one worker left a core
  // idle and npm test took over 11 minutes; the reliability, soak and browser suites keep one.
  maxWorkers: 2,
  // `it.concurrent` tests of one file at once (apps/notifier/test/support/on-store.ts,
  // stacksOnStores): a file's tests on both stores wait side by side.
  maxConcurrency: 8,
  globalSetup: '<rootDir>/tools/jest/global-setup.js',
  globalTeardown: '<rootDir>/tools/jest/global-teardown.js',
  reporters: ['default', '<rootDir>/tools/jest/summary-reporter.js'],
};
