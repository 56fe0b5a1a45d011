// `npm run pack:libs`: builds the libraries' npm packages with Nx (the `package` target of every
// project that has one: @nx/js:tsc, nx.json's targetDefaults) into dist/packages/<project>, checks
// that each package.json names exactly the packages its files load (its own libs/.../package.json
// lists them by hand: Nx's generated lists add every transitive dependency), and packs each into
// dist/packs/<name>-<version>.tgz, printing the path of every file it wrote, one per line.
// Progress goes to stderr, so that stdout is the list of files.
const { execFileSync } = require('node:child_process');
const { builtinModules } = require('node:module');
const { mkdirSync, readdirSync, readFileSync, rmSync } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const built = path.join(root, 'dist/packages');
const packs = path.join(root, 'dist/packs');
const env = { ...process.env, NX_DAEMON: 'false' };

rmSync(built, { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('nx/bin/nx', { paths: [root] }), 'run-many', '-t', 'package'], {
  cwd: root,
  env,
  stdio: ['ignore', process.stderr, 'inherit'],
});

/** The packages a file loads: `require("x")` in JavaScript, `from 'x'` and `import('x')` in declarations. */
function loaded(file) {
  const text = readFileSync(file, 'utf8');
  const names = new Set();
  for (const [, spec] of text.matchAll(/(?:require\(|from |import\()["']([^"'.][^"']*)["']/g)) {
    if (spec.startsWith('node:') || builtinModules.includes(spec)) continue;
    const parts = spec.split('/');
    names.add(spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
  }
  return names;
}

const filesOf = (dir) =>
  readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => /\.(js|d\.ts)$/.test(f))
    .map((f) => path.join(dir, f));

const problems = [];
const packages = readdirSync(built).map((dir) => {
  const manifest = JSON.parse(readFileSync(path.join(built, dir, 'package.json'), 'utf8'));
  const used = new Set(filesOf(path.join(built, dir)).flatMap((f) => [...loaded(f)]));
  used.delete(manifest.name);
  const declared = Object.keys(manifest.dependencies ?? {});
  for (const name of used)
    if (!declared.includes(name)) problems.push(`${manifest.name} loads ${name} but does not depend on it`);
  for (const name of declared)
    if (!used.has(name)) problems.push(`${manifest.name} depends on ${name} but loads nothing of it`);
  return { dir, manifest };
});
// One version for all (a bump is `nx release version`, nx.json "release"), and each names its siblings at it.
const versions = new Map(packages.map(({ manifest }) => [manifest.name, manifest.version]));
for (const { manifest } of packages)
  for (const [name, range] of Object.entries(manifest.dependencies ?? {}))
    if (versions.has(name) && range !== versions.get(name))
      problems.push(`${manifest.name} depends on ${name}@${range}, which is at ${versions.get(name)}`);
if (problems.length > 0) {
  process.stderr.write(
    `pack:libs: the packages' dependencies are wrong:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`,
  );
  process.exit(1);
}

rmSync(packs, { recursive: true, force: true });
mkdirSync(packs, { recursive: true });
for (const { dir } of packages) {
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', packs], {
      cwd: path.join(built, dir),
      encoding: 'utf8',
      env: { ...process.env, npm_config_loglevel: 'error' },
    }),
  );
  console.log(path.join(packs, packed.filename));
}
