// Checks that the Nx targets cover what the npm scripts do, file for file:
// - every spec file the root `jest` run (`npm test`) runs belongs to exactly one project's `test`
//   target, and those targets run nothing else;
// - every source file `npm run build` compiles (tsconfig.build.json, and the dashboard's
//   tsconfig.browser.json, which its bundler type-checks) is compiled by exactly one project's `build`
//   target (the tsconfig its command ends with), and no other file is.
// Run: `node tools/nx/check-coverage.js` (about 15 s: one `jest --listTests` per tested project).
const { execFileSync } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');
const ts = require('typescript');

const root = path.resolve(__dirname, '../..');
const env = { ...process.env, NX_DAEMON: 'false' };
const run = (file, args) =>
  execFileSync(process.execPath, [require.resolve(file, { paths: [root] }), ...args], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
const relative = (files) => files.map((f) => path.relative(root, path.resolve(root, f))).sort();
const listTests = (args) =>
  relative(
    run('jest/bin/jest', ['--config', 'jest.config.js', '--listTests', ...args])
      .split('\n')
      .filter(Boolean),
  );
const listSources = (tsconfig) => {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(root, tsconfig),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (!parsed) throw new Error(`cannot read ${tsconfig}`);
  return relative(parsed.fileNames);
};

/** The tsconfig files the `build` npm script names: each of its steps compiles one. */
function buildConfigs() {
  const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  return scripts.build.match(/\S*tsconfig[\w.-]*\.json/g) ?? [];
}

const tmp = mkdtempSync(path.join(tmpdir(), 'gw-graph-'));
run('nx/bin/nx', ['graph', `--file=${tmp}/graph.json`]);
const { nodes } = JSON.parse(readFileSync(`${tmp}/graph.json`, 'utf8')).graph;
rmSync(tmp, { recursive: true });

/** Which project targets take each file of `expected`; `list(project)` gives a target's files. */
function owners(what, expected, list) {
  const owned = new Map(expected.map((f) => [f, []]));
  const problems = [];
  for (const [name, { data }] of Object.entries(nodes)) {
    const files = list(name, data);
    for (const file of files ?? []) {
      if (owned.has(file)) owned.get(file).push(name);
      else problems.push(`${file}: in ${name}:${what} but not in the npm script's run`);
    }
  }
  for (const [file, names] of owned)
    if (names.length !== 1) problems.push(`${file}: in ${names.length ? names.join(', ') : 'no project'}'s ${what}`);
  console.log(`${what}: ${expected.length} files, ${problems.length} problems`);
  for (const p of problems) console.log(`  ${p}`);
  return problems.length;
}

const problems =
  owners('test', listTests([]), (name, data) => {
    const command = data.targets.test?.options.command;
    if (!command) return undefined;
    const roots = command.match(/--roots (\S+)/)?.[1];
    if (!roots) throw new Error(`${name}: test target without --roots: ${command}`);
    return listTests(['--roots', roots]);
  }) +
  owners('build', buildConfigs().flatMap(listSources), (name, data) => {
    const command = data.targets.build?.options.command;
    return command ? listSources(command.split(' ').pop()) : undefined;
  });
process.exit(problems ? 1 : 0);
