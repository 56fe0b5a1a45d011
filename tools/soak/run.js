// `npm run test:soak -- --minutes N` (default 1): runs the soak spec for N measured minutes with
// jest.soak.config.js; the exit code is Jest's.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const args = process.argv.slice(2);
let minutes = '1';
for (let i = 0; i < args.length; i++) {
  const [name, inline] = args[i].split('=', 2);
  if (name !== '--minutes') {
    console.error(`unknown argument ${args[i]}; usage: npm run test:soak -- --minutes N`);
    process.exit(2);
  }
  minutes = inline ?? args[++i];
}
if (!/^\d+(\.\d+)?$/.test(minutes ?? '') || Number(minutes) <= 0) {
  console.error(`--minutes needs a positive number, got ${minutes}`);
  process.exit(2);
}

const result = spawnSync(process.execPath, [require.resolve('jest/bin/jest'), '--config', 'jest.soak.config.js'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, SOAK_MINUTES: minutes },
});
process.exit(result.status ?? 1);
