// Resolves the workspace's `@gw/*` aliases to the compiled output in dist/, so that the built apps
// run with plain `node -r ./tools/runtime/paths.js dist/...`. The aliases come from
// tsconfig.base.json, their single source.
const path = require('node:path');
const Module = require('node:module');
const { compilerOptions } = require('../../tsconfig.base.json');

const root = path.resolve(__dirname, '../..');
const aliases = new Map(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [
    alias,
    path.join(root, 'dist', target.replace(/\.ts$/, '.js')),
  ]),
);

const resolve = Module._resolveFilename;
Module._resolveFilename = function resolveAlias(request, ...rest) {
  const target = aliases.get(request);
  return resolve.call(this, target ?? request, ...rest);
};
