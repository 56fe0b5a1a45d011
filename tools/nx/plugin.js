// The workspace's Nx plugin (registered in nx.json): infers the targets of every project, that is
// of every folder with a project.json, so that the project.json files hold only what is particular
// to a project (name, tags, what its e2e specs need built first):
// - build: when the project has a tsconfig.lib.json or tsconfig.app.json; type-checks it and emits
//   its files into dist/<project root>, the layout `npm run build` makes (tools/nx/build-project.js).
// - test: when the project holds specs that the root `jest` run picks up; runs that Jest
//   configuration on the project's folder only.
// - lint: always; ESLint with the root flat config on the project's folder.
const { existsSync, readdirSync, rmSync } = require('node:fs');
const { dirname, join } = require('node:path');

// The root jest.config.js runs every *.spec.ts except the reliability, soak, browser and libraries suites.
const isRootJestSpec = (file) =>
  file.endsWith('.spec.ts') && !/\.(reliability|soak|browser|libraries)\.spec\.ts$/.test(file);

function targetsOf(projectRoot, workspaceRoot) {
  const dir = join(workspaceRoot, projectRoot);
  const targets = {};

  const tsconfig = ['tsconfig.lib.json', 'tsconfig.app.json'].find((name) => existsSync(join(dir, name)));
  if (tsconfig) {
    targets.build = {
      command: `node tools/nx/build-project.js ${projectRoot}/${tsconfig}`,
      cache: true,
      dependsOn: ['^build'],
      inputs: [
        'production',
        '^production',
        '{workspaceRoot}/tools/nx/build-project.js',
        '{workspaceRoot}/tools/bundle-apps.js',
        '{workspaceRoot}/tools/write-atomically.js',
        '{workspaceRoot}/tools/apps.js',
      ],
      outputs: ['{workspaceRoot}/dist/{projectRoot}'],
      metadata: {
        description: `Type-check with ${tsconfig} and emit into dist/${projectRoot}`,
        technologies: ['typescript'],
      },
    };
  }

  const files = readdirSync(dir, { recursive: true }).map(String);
  if (files.some(isRootJestSpec)) {
    targets.test = {
      command: `jest --config jest.config.js --roots ${projectRoot}`,
      cache: true,
      // Specs that run built apps declare those builds in their project.json (dependsOn); their
      // output is then part of the hash.
      inputs: ['default', '^production', 'testGlobals', { dependentTasksOutputFiles: '**/*', transitive: true }],
      outputs: [],
      metadata: { description: `The root Jest configuration on ${projectRoot} only`, technologies: ['jest'] },
    };
  }

  targets.lint = {
    command: `eslint ${projectRoot} --max-warnings 0`,
    cache: true,
    // ^default: the module-boundary rule reads the tags and imports of the projects depended on.
    inputs: ['default', '^default', '{workspaceRoot}/eslint.config.mjs'],
    outputs: [],
    metadata: { description: `ESLint (root eslint.config.mjs) on ${projectRoot}`, technologies: ['eslint'] },
  };
  return targets;
}

/** Nx 23 calls this `createNodes` (formerly `createNodesV2`): all matching files in one call. */
const createNodes = [
  '**/project.json',
  (projectFiles, _options, context) =>
    projectFiles.map((file) => {
      const projectRoot = dirname(file);
      return [file, { projects: { [projectRoot]: { targets: targetsOf(projectRoot, context.workspaceRoot) } } }];
    }),
];

/** `npm run build` is an incremental tsc: once Nx has written to dist/ (a build, or outputs
 * restored from the cache), its saved state may no longer match dist/, so it must rebuild fully. */
function postTasksExecution(_options, context) {
  const touchedDist = Object.values(context.taskResults).some(
    ({ task, status }) =>
      task.target.target === 'build' && status !== 'local-cache-kept-existing' && status !== 'skipped',
  );
  if (touchedDist) rmSync(join(context.workspaceRoot, 'dist/.tsbuildinfo'), { force: true });
}

module.exports = { name: 'gw-workspace', createNodes, postTasksExecution };
