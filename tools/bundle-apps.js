// Bundles each app's built entry point (tsc's output in dist/) into one file (tools/apps.js names
// both and says why). The `@gw/*` aliases are resolved into dist/ as tsconfig-paths resolves them
// for the tools at run time (tsconfig.runtime.json). Left outside the bundle, loaded from
// node_modules at run time: packages with native addons or that find their own files on disk, and
// optional packages that are not installed (NestJS requires them only when asked for).
// Usage: node tools/bundle-apps.js [name...] (every bundle of tools/apps.js when none is named)
const path = require('node:path');
const acorn = require('acorn');
const walk = require('acorn-walk');
const esbuild = require('esbuild');
const { createMatchPath, loadConfig } = require('tsconfig-paths');
const { BUNDLES } = require('./apps');
const { writeAtomically } = require('./write-atomically');

const root = path.resolve(__dirname, '..');

// Native addons, files found from __dirname, and a client whose generated code is large and used
// only on EventStoreDB.
const EXTERNAL = ['better-sqlite3', 'sodium-native', '@eventstore/db-client', 'swagger-ui-dist'];

function aliasesIntoDist() {
  const config = loadConfig(path.join(root, 'tsconfig.runtime.json'));
  if (config.resultType !== 'success') throw new Error(`tsconfig.runtime.json: ${config.message}`);
  const match = createMatchPath(config.absoluteBaseUrl, config.paths);
  return {
    name: 'gw-aliases-and-optional-packages',
    setup(build) {
      build.onResolve({ filter: /^@gw\// }, (args) => {
        const found = match(args.path, undefined, undefined, ['.js']);
        if (!found) return { errors: [{ text: `${args.path} resolves to nothing under dist/` }] };
        return { path: require.resolve(found) };
      });
      // (After the aliases, which always answer.) A bare import that does not resolve from where it
      // is made is an optional package that is not installed: left as a require() that fails at
      // run time, as it would unbundled.
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:')) return undefined;
        try {
          require.resolve(args.path, { paths: [args.resolveDir] });
          return undefined;
        } catch {
          return { path: args.path, external: true };
        }
      });
    },
  };
}

async function bundle(names) {
  const plugin = aliasesIntoDist();
  for (const name of names) {
    const { from, to } = BUNDLES[name] ?? {};
    if (!from) throw new Error(`unknown bundle "${name}"; known: ${Object.keys(BUNDLES).join(', ')}`);
    const result = await esbuild.build({
      entryPoints: [path.join(root, from)],
      outfile: path.join(root, to),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      // NestJS and class-validator name providers and constraints after their classes, and
      // esbuild renames some of them (a class that names itself is written `var X = class _X`):
      // keepNames restores the names. Its wrappers around arrow functions are taken out below.
      keepNames: true,
      external: EXTERNAL,
      plugins: [plugin],
      // Stack traces keep naming the TypeScript sources (--enable-source-maps): esbuild follows
      // tsc's source maps of the files it bundles.
      sourcemap: 'linked',
      sourcesContent: false,
      logLevel: 'warning',
      // Written here, each file whole (writeAtomically), the code after the pass below; the map
      // first, so that new code never meets an old map.
      write: false,
    });
    const outputs = [...result.outputFiles].sort(
      (x, y) => Number(x.path.endsWith('.js')) - Number(y.path.endsWith('.js')),
    );
    for (const output of outputs)
      writeAtomically(output.path, output.path.endsWith('.js') ? unwrapNamedArrows(output.text) : output.contents);
  }
}

/**
 * keepNames wraps each named arrow function in `__name(arrow, "name")`, a defineProperty every time
 * the arrow is made: closures made per request or per delivery paid it (1.2 % of the notifier's CPU
 * at 2,000 messages/s, bench i profiled). An arrow is never a class or a constructor, and where it
 * is assigned to a binding or property of the same name the language gives it that name anyway; so
 * there the call is blanked out where it stands: `__name` and `, "name"` turn to spaces and the
 * call's parentheses stay (`(arrow)` is named like `arrow`), every line and column kept, so the
 * source map stays exact. Everywhere else (a binding esbuild renamed, a member assigned to) the
 * wrapper stays, as it does for classes and functions: NestJS and class-validator read their names.
 */
function unwrapNamedArrows(source) {
  // The spans to blank: `__name` before the call's `(`, and `, "name"` before its `)`. Never
  // overlapping, even for an arrow wrapped inside another's body.
  const spans = [];
  walk.ancestor(acorn.parse(source, { ecmaVersion: 'latest', sourceType: 'script' }), {
    CallExpression(node, _state, ancestors) {
      const [arrow, name] = node.arguments;
      if (node.callee.type !== 'Identifier' || node.callee.name !== '__name' || node.arguments.length !== 2) return;
      if (arrow.type !== 'ArrowFunctionExpression' || name.type !== 'Literal') return;
      if (namedAs(node, ancestors[ancestors.length - 2]) !== name.value) return;
      // (The arrow may stand in parentheses of its own, outside its node: blanked from the comma.)
      spans.push([node.start, node.callee.end], [source.lastIndexOf(',', name.start), name.end]);
    },
  });
  spans.sort((a, b) => a[0] - b[0]);
  const parts = [];
  let at = 0;
  for (const [start, end] of spans) {
    parts.push(source.slice(at, start), source.slice(start, end).replace(/[^\n]/g, ' '));
    at = end;
  }
  parts.push(source.slice(at));
  return parts.join('');
}

/** The name the language gives an anonymous function standing as `node` in `parent` (ECMAScript's
 * NamedEvaluation): a variable's, a property's or a field's, or a plain name assigned to or
 * defaulted; undefined where it gives none. */
function namedAs(node, parent) {
  const plain = (key) =>
    key.type === 'Identifier' ? key.name : key.type === 'Literal' ? String(key.value) : undefined;
  switch (parent?.type) {
    case 'VariableDeclarator':
      return parent.init === node && parent.id.type === 'Identifier' ? parent.id.name : undefined;
    case 'AssignmentExpression':
      return parent.right === node && parent.operator === '=' && parent.left.type === 'Identifier'
        ? parent.left.name
        : undefined;
    case 'AssignmentPattern':
      return parent.right === node && parent.left.type === 'Identifier' ? parent.left.name : undefined;
    case 'Property':
      return parent.value === node && parent.kind === 'init' && !parent.computed ? plain(parent.key) : undefined;
    case 'PropertyDefinition':
      if (parent.value !== node || parent.computed) return undefined;
      return parent.key.type === 'PrivateIdentifier' ? `#${parent.key.name}` : plain(parent.key);
    default:
      return undefined;
  }
}

module.exports = { unwrapNamedArrows };

if (require.main === module) {
  const names = process.argv.slice(2);
  bundle(names.length > 0 ? names : Object.keys(BUNDLES)).catch((error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exit(1);
  });
}
