// `npm run build` (and `nx build dashboard`): type-checks the dashboard with its browser tsconfig,
// then bundles it with esbuild into dist/apps/dashboard: index.html and assets/ whose names carry a
// hash of their content (the account host serves them: apps/api/src/dashboard). TypeScript only
// type-checks here; esbuild strips the types (no decorators in the page, so no metadata is lost).
// Usage: node apps/dashboard/bundle.js apps/dashboard/tsconfig.browser.json
const { createHash } = require('node:crypto');
const { mkdirSync, readdirSync, readFileSync, rmSync } = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');
const ts = require('typescript');
const { writeAtomically } = require('../../tools/write-atomically');

const root = path.resolve(__dirname, '../..');
const configPath = path.resolve(root, process.argv[2] ?? 'apps/dashboard/tsconfig.browser.json');
const src = path.join(__dirname, 'src');
const out = path.join(root, 'dist/apps/dashboard');

function typeCheck() {
  const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => ts.sys.newLine };
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (!parsed) throw new Error(`cannot read ${configPath}`);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  const diagnostics = [...parsed.errors, ...ts.getPreEmitDiagnostics(program)];
  if (diagnostics.length === 0) return;
  const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  process.stderr.write(format(diagnostics, host));
  if (diagnostics.some((d) => d.category === ts.DiagnosticCategory.Error)) process.exit(1);
}

const hashed = (name, content) => {
  const ext = path.extname(name);
  return `${path.basename(name, ext)}-${createHash('sha256').update(content).digest('hex').slice(0, 10)}${ext}`;
};

async function main() {
  typeCheck();
  // Built in memory and then written file by file, each through a rename, and the files of an earlier
  // build removed last: a build (every `npm run ops` starts with one) may run while an API reads the
  // bundle, and must never show it a missing or half-written file.
  mkdirSync(path.join(out, 'assets'), { recursive: true });
  const result = await esbuild.build({
    entryPoints: [path.join(src, 'main.ts'), path.join(src, 'styles.css')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    legalComments: 'none',
    tsconfig: configPath,
    outdir: path.join(out, 'assets'),
    entryNames: '[name]-[hash]',
    metafile: true,
    write: false,
    logLevel: 'warning',
  });
  for (const file of result.outputFiles) writeAtomically(file.path, file.contents);
  const names = {};
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    if (output.entryPoint) names[path.basename(output.entryPoint)] = path.basename(file);
  }
  const icon = readFileSync(path.join(src, 'icon.svg'));
  names['icon.svg'] = hashed('icon.svg', icon);
  writeAtomically(path.join(out, 'assets', names['icon.svg']), icon);

  const html = readFileSync(path.join(src, 'index.html'), 'utf8').replace(/\{\{asset:([\w.-]+)\}\}/g, (_, name) => {
    if (!names[name]) throw new Error(`index.html names an asset the bundle does not have: ${name}`);
    return `/assets/${names[name]}`;
  });
  writeAtomically(path.join(out, 'index.html'), html);
  // What an earlier build left: assets whose content (so whose hashed name) is no longer used.
  const kept = new Set(Object.values(names));
  for (const name of readdirSync(path.join(out, 'assets')))
    if (!kept.has(name)) rmSync(path.join(out, 'assets', name), { force: true });
  // Progress goes to stderr: stdout belongs to whatever runs after the build (`npm run --silent ops`
  // pipes the CLI's JSON lines into other tools).
  process.stderr.write(`${path.relative(root, out)}: index.html, ${Object.values(names).join(', ')}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
