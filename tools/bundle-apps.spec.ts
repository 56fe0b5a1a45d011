import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { runInNewContext } from 'node:vm';
import { parse } from 'acorn';
import { simple } from 'acorn-walk';

// tools/bundle-apps.js is plain CommonJS run by node; its pass over esbuild's output is pure.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { unwrapNamedArrows } = require('./bundle-apps') as { unwrapNamedArrows: (source: string) => string };

/** esbuild's helper as keepNames writes it, and code shaped like its output around it. */
const HELPER =
  'var __name = (target, value) => Object.defineProperty(target, "name", { value, configurable: true });\n';

function run(source: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  runInNewContext(source, { out });
  return out;
}

/** The names of the arrows a source still wraps in `__name`. */
function wrappedArrowNames(source: string): string[] {
  const names: string[] = [];
  simple(parse(source, { ecmaVersion: 'latest', sourceType: 'script' }), {
    CallExpression(node) {
      const [first, name] = node.arguments;
      if (
        node.callee.type === 'Identifier' &&
        node.callee.name === '__name' &&
        first?.type === 'ArrowFunctionExpression'
      )
        names.push(name?.type === 'Literal' ? String(name.value) : '?');
    },
  });
  return names;
}

/** The arrows a source still wraps in `__name`. */
function wrappedArrows(source: string): number {
  return wrappedArrowNames(source).length;
}

const SAMPLE =
  HELPER +
  [
    'function make(req) {',
    '  const onData = /* @__PURE__ */ __name((chunk) => {',
    '    const inner = /* @__PURE__ */ __name(async (x) => x, "inner");',
    '    return inner;',
    '  }, "onData");',
    '  return { onData, get: /* @__PURE__ */ __name(() => req, "get"), metatype: /* @__PURE__ */ __name(((i) => i), "metatype") };',
    '}',
    '__name(make, "make");',
    'var Store = class _Store { static on() { return new _Store(); } };',
    '__name(Store, "Store");',
    'const made = make(1);',
    'out.names = [made.onData.name, made.onData().name, made.get.name, made.metatype.name, Store.name, make.name];',
    'out.values = [made.get(), made.metatype(7)];',
  ].join('\n');

describe('bundle-apps: the arrows keepNames wraps', () => {
  it('are unwrapped, and every name the code reads is the same as with the wrappers', () => {
    const before = run(SAMPLE);
    const unwrapped = unwrapNamedArrows(SAMPLE);

    expect(wrappedArrows(SAMPLE)).toBe(4);
    expect(wrappedArrows(unwrapped)).toBe(0);
    expect(run(unwrapped)).toEqual(before);
    expect(before.names).toEqual(['onData', 'inner', 'get', 'metatype', 'Store', 'make']);
    expect(before.values).toEqual([1, 7]);
  });

  it('keeps the wrappers of classes and functions', () => {
    const unwrapped = unwrapNamedArrows(SAMPLE);

    expect(unwrapped).toContain('__name(make, "make");');
    expect(unwrapped).toContain('__name(Store, "Store");');
  });

  it('keeps the wrapper of an arrow the language would name otherwise: a renamed binding, a member', () => {
    const source =
      HELPER +
      [
        'var handler2 = /* @__PURE__ */ __name(() => 2, "handler");',
        'const target = {};',
        'target.run = /* @__PURE__ */ __name(() => 3, "run");',
        'let plain;',
        'plain = /* @__PURE__ */ __name(() => 4, "plain");',
        'function withDefault(f = /* @__PURE__ */ __name(() => 5, "f")) { return f; }',
        'class Fields { field = /* @__PURE__ */ __name(() => 6, "field"); #own = /* @__PURE__ */ __name(() => 7, "#own"); own() { return this.#own; } }',
        'const fields = new Fields();',
        'out.names = [handler2.name, target.run.name, plain.name, withDefault().name, fields.field.name, fields.own().name];',
      ].join('\n');
    const unwrapped = unwrapNamedArrows(source);

    expect(run(unwrapped)).toEqual(run(source));
    expect(run(source).names).toEqual(['handler', 'run', 'plain', 'f', 'field', '#own']);
    // The two the language names otherwise keep their wrappers; the four it names alike lose them.
    expect(wrappedArrows(unwrapped)).toBe(2);
    expect(unwrapped).toContain('__name(() => 2, "handler")');
    expect(unwrapped).toContain('__name(() => 3, "run")');
  });

  it('keeps every line and column, so that the source map still points where it did', () => {
    const unwrapped = unwrapNamedArrows(SAMPLE);

    expect(unwrapped).toHaveLength(SAMPLE.length);
    const lines = unwrapped.split('\n');
    expect(lines.map((line) => line.length)).toEqual(SAMPLE.split('\n').map((line) => line.length));
    // What is left of each line is what it held, less the wrappers.
    expect(lines[2]).toBe('  const onData = /* @__PURE__ */       ((chunk) => {');
    expect(lines[5]).toBe('  }          );');
    expect(unwrapped.indexOf('return inner;')).toBe(SAMPLE.indexOf('return inner;'));
  });

  it('leaves a source without wrapped arrows as it is', () => {
    const source = HELPER + 'class A {}\n__name(A, "A");\nconst f = (x) => x;\n';

    expect(unwrapNamedArrows(source)).toBe(source);
  });

  it('was made on the built bundles (npm run build runs it): nothing is left to unwrap in them', () => {
    const root = path.resolve(__dirname, '..');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { BUNDLES } = require('./apps') as { BUNDLES: Record<string, { to: string }> };
    for (const { to } of Object.values(BUNDLES)) {
      const source = readFileSync(path.join(root, to), 'utf8');
      expect(source).toContain('var __name = ');
      // (An arrow esbuild gave a renamed binding keeps its wrapper, and is not unwrapped again here.)
      expect({ bundle: to, unwrapped: unwrapNamedArrows(source) === source }).toEqual({ bundle: to, unwrapped: true });
    }
    // Today every named arrow in them sits where the language names it alike but one (should esbuild
    // rename another's binding, this says so: see whether it runs on a hot path). The one is undici's
    // `connect`, which its Client makes once per client (a receiver's origin), not per request.
    const api = readFileSync(path.join(root, BUNDLES.api.to), 'utf8');
    expect(wrappedArrowNames(api)).toEqual(['connect']);
  });
});

describe('bundle-apps: writing a bundle', () => {
  it('replaces each file whole (a new file renamed over it), so that a process starting meanwhile never reads a part', () => {
    // The operator CLI's bundle, the smallest: `npm run ops` builds again while other suites start
    // apps and the CLI, as ops-script-output does in the middle of `npm test`.
    const root = path.resolve(__dirname, '..');
    const files = ['dist/tools/ops/main.js', 'dist/tools/ops/main.js.map'].map((file) => path.join(root, file));
    const before = files.map((file) => ({ inode: statSync(file).ino, text: readFileSync(file, 'utf8') }));

    execFileSync(process.execPath, [path.join(root, 'tools/bundle-apps.js'), 'ops'], { cwd: root, stdio: 'pipe' });

    const after = files.map((file) => ({ inode: statSync(file).ino, text: readFileSync(file, 'utf8') }));
    // Written in place, a file keeps its inode; renamed over, it has a new one.
    after.forEach(({ inode }, i) => expect(inode).not.toBe(before[i].inode));
    // The same input bundles to the same bytes, and no temporary file is left beside them.
    after.forEach(({ text }, i) => expect(text).toBe(before[i].text));
    expect(readdirSync(path.join(root, 'dist/tools/ops')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
