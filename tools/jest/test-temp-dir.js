// One folder per Jest run for the data dirs the specs make (`tempDataDir()` in @gw/testing), removed
// when the run ends: a spec that forgets its folder, or stops early, leaves nothing behind in the
// system's temp dir. The workers start after this and inherit the variable.
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const VARIABLE = 'GW_TEST_TMP';

exports.setup = () => {
  process.env[VARIABLE] = mkdtempSync(join(tmpdir(), 'gw-test-run-'));
};

exports.teardown = () => {
  const dir = process.env[VARIABLE];
  if (dir) rmSync(dir, { recursive: true, force: true });
};
