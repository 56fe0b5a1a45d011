#!/usr/bin/env node
// `npm run events:fixtures [-- --force]`: writes the fixture of each event type's current schema
// version that has none (libs/application/src/event-schema/__fixtures__/<Type>.v<N>.json) from its
// typed sample, then runs the fixtures spec. An existing fixture is never rewritten, except with
// `--force`, which rewrites those that differ from the sample: only for a shape that no store has
// kept yet. How to change an event's shape: docs/api.md section 9.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--force');
if (unknown.length > 0) {
  process.stderr.write(`usage: npm run events:fixtures [-- --force]\nunknown argument: ${unknown.join(' ')}\n`);
  process.exit(2);
}
const root = path.resolve(__dirname, '..');
const result = spawnSync(
  process.execPath,
  [
    require.resolve('jest/bin/jest', { paths: [root] }),
    '--config',
    'jest.config.js',
    'libs/application/src/event-schema/event-fixtures.spec.ts',
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, EVENT_FIXTURES: args.includes('--force') ? 'force' : 'write' },
  },
);
process.exit(result.status ?? 1);
