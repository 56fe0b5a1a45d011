// The service's apps as every launcher starts them: `npm start` and the container (tools/start.js),
// and the tests and benchmarks (libs/testing's AppProcess), so that what is tested runs as deployed.

/** Each app's built entry point, from the repository root. */
const APPS = {
  api: 'dist/apps/api/src/main.js',
  notifier: 'dist/apps/notifier/src/main.js',
};

/**
 * Node options every app runs with, before the entry point.
 *
 * --max-semi-space-size=16 keeps V8's young generation at the size Node 20 gives it by default. Node
 * 24 grows each of its two halves to 64 MiB after a burst of garbage (folding a long notification
 * history does it), and garbage then waits there until a half is full: the API paging 60 KB
 * messages measured 47-53 MiB over its idle size on Node 24 against the 64 MiB docs/api.md section
 * 11 allows, and 9-28 MiB with this cap, as on Node 20 (apps/notifier/test/byte-bounds.e2e.spec.ts).
 */
const APP_NODE_ARGS = ['--max-semi-space-size=16'];

module.exports = { APPS, APP_NODE_ARGS };
