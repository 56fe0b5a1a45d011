// Used by the build scripts (tools/bundle-apps.js, apps/dashboard/bundle.js) for what they write
// into dist/ while other processes may read it: `npm test` starts apps while `npm run ops` builds.
const fs = require('node:fs');
const path = require('node:path');

/**
 * Replaces `file` in one step: the content goes into a temporary name beside it, which is then
 * renamed over it, so that a reader gets the old file or the new one, never a part of one (an app
 * that read a part of its bundle failed to start with a SyntaxError). No temporary file is left
 * behind when writing fails.
 */
function writeAtomically(file, content) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temporary, content);
    fs.renameSync(temporary, file);
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}

module.exports = { writeAtomically };
