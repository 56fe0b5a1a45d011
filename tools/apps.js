// The service's apps as every launcher starts them: `npm start` and the container (tools/start.js),
// and the tests and benchmarks (libs/testing's AppProcess), so that what is tested runs as deployed.

/**
 * What `npm run build` bundles (tools/bundle-apps.js): each app's entry point as tsc built it into
 * dist/ (`from`), and the one file it becomes (`to`), the `@gw/*` libraries and most packages inside.
 * A process then loads one file instead of some 1,500 modules: resolving, reading and compiling
 * those was half of an API start's CPU.
 */
const BUNDLES = {
  api: { from: 'dist/apps/api/src/main.js', to: 'dist/apps/api/main.js' },
  notifier: { from: 'dist/apps/notifier/src/main.js', to: 'dist/apps/notifier/main.js' },
  // The operator CLI (`npm run ops`): not a service, but run often, and its start is all it waits for.
  ops: { from: 'dist/tools/ops/src/main.js', to: 'dist/tools/ops/main.js' },
};

/** Each app's entry point, from the repository root. */
const APPS = { api: BUNDLES.api.to, notifier: BUNDLES.notifier.to };

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

module.exports = { APPS, APP_NODE_ARGS, BUNDLES };
