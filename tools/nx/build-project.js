// `nx build <project>`: type-checks one project's tsconfig (its sources and every `@gw/*` source they
// import) and emits only that project's own files, into dist/ at the same paths as `npm run build`
// (dist/<project root>/...). The files of the libraries it imports are left to their own build
// tasks, so each file in dist/ has one owner, the task's outputs are exactly what it writes, and a
// build never rewrites files that another task (a running e2e spec, say) may be reading.
// Usage: node tools/nx/build-project.js <project root>/tsconfig.(lib|app).json
const { execFileSync } = require('node:child_process');
const { rmSync } = require('node:fs');
const path = require('node:path');
const ts = require('typescript');
const { BUNDLES } = require('../apps');

const root = path.resolve(__dirname, '../..');
const configPath = path.resolve(root, process.argv[2] ?? '');

const host = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => root,
  getNewLine: () => ts.sys.newLine,
};
const report = (diagnostics) => {
  if (diagnostics.length === 0) return;
  const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  process.stderr.write(format(diagnostics, host));
};

const parsed = ts.getParsedCommandLineOfConfigFile(
  configPath,
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => report([d]) },
);
if (!parsed) process.exit(1);
if (parsed.errors.length > 0) {
  report(parsed.errors);
  process.exit(1);
}
const { outDir } = parsed.options;
if (!outDir) throw new Error(`${configPath} sets no outDir`);
// rootDir is the workspace root (tsconfig.base.json), so dist/ mirrors the source tree.
const projectDir = path.dirname(configPath) + path.sep;
const own = path.join(outDir, path.relative(root, projectDir)) + path.sep;

const program = ts.createProgram({
  rootNames: parsed.fileNames,
  options: parsed.options,
  projectReferences: parsed.projectReferences,
});
// The project's own sources. The libraries it imports are type-checked by their own build tasks
// (dependsOn ^build), so here they only provide types: checking their bodies again in every
// dependent would make the builds several times slower.
const ownSources = program
  .getSourceFiles()
  .filter((sf) => !sf.isDeclarationFile && path.resolve(sf.fileName).startsWith(projectDir));
const diagnostics = [
  ...program.getConfigFileParsingDiagnostics(),
  ...program.getOptionsDiagnostics(),
  ...program.getGlobalDiagnostics(),
  ...ownSources.flatMap((sf) => [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)]),
];
report(diagnostics);
if (diagnostics.some((d) => d.category === ts.DiagnosticCategory.Error)) process.exit(1);

// `npm run build` is incremental: its state no longer matches dist/ once this changes dist/.
rmSync(path.join(outDir, '.tsbuildinfo'), { force: true });
// Start clean, so that the output of a deleted source does not linger.
rmSync(own, { recursive: true, force: true });
let written = 0;
const writeFile = (file, text, bom) => {
  if (!path.resolve(file).startsWith(own)) throw new Error(`${file} is outside ${own}`);
  ts.sys.writeFile(file, text, bom);
  written++;
};
for (const sf of ownSources) {
  const emitted = program.emit(sf, writeFile);
  report(emitted.diagnostics);
  if (emitted.emitSkipped) process.exit(1);
}
if (written === 0) {
  process.stderr.write(`${path.relative(root, configPath)} emitted nothing under ${path.relative(root, own)}\n`);
  process.exit(1);
}
console.log(`${path.relative(root, own)}: ${written} files`);

// An app's build ends with its bundle (tools/apps.js), made from this output and its libraries'
// (built before it: ^build), as `npm run build` makes it.
const bundles = Object.keys(BUNDLES).filter((name) => path.resolve(root, BUNDLES[name].from).startsWith(own));
if (bundles.length > 0) {
  execFileSync(process.execPath, [path.join(root, 'tools/bundle-apps.js'), ...bundles], { stdio: 'inherit' });
  console.log(`${path.relative(root, own)}: bundled ${bundles.map((name) => BUNDLES[name].to).join(', ')}`);
}
