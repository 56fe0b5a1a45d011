import { execFile } from 'node:child_process';
import { cpSync, lstatSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ROOT } from '@gw/testing';

/** What a command printed, and how it ended. */
export interface Ran {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs a command without blocking this process (the EventStoreDB test double may run in it). */
export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ status: error ? Number((error as { code?: unknown }).code ?? 1) || 1 : 0, stdout, stderr }),
    );
  });
}

/** Runs a command that must succeed; returns its stdout. */
export async function runOk(command: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<string> {
  const ran = await run(command, args, cwd, env);
  if (ran.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited ${ran.status}:\n${ran.stdout}\n${ran.stderr}`);
  return ran.stdout;
}

/** How long a step took, on stderr, so that CI's log shows where the step's time goes. */
export async function timed<T>(what: string, work: () => Promise<T>): Promise<T> {
  const start = Date.now();
  try {
    return await work();
  } finally {
    process.stderr.write(`[libraries] ${what} took ${Math.round((Date.now() - start) / 1000)}s\n`);
  }
}

const APP = join(ROOT, 'examples/internal-app');

/**
 * examples/internal-app copied into a new folder outside the repository, its `file:` dependencies
 * pointed at the packed files `tgzs` (by package name: `gw-<name>-<version>.tgz` is `@gw/<name>`),
 * which must be exactly the packages it names. Returns the folder; `npm install` is the caller's.
 */
export function copyApp(tgzs: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-internal-app-'));
  cpSync(join(APP, 'src'), join(dir, 'src'), { recursive: true });
  cpSync(join(APP, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  const manifest = JSON.parse(readFileSync(join(APP, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const byName = new Map(tgzs.map((file) => [basename(file).replace(/^gw-(.+)-\d+\.\d+\.\d+\.tgz$/, '@gw/$1'), file]));
  const named = Object.keys(manifest.dependencies).sort();
  if (named.join() !== [...byName.keys()].sort().join())
    throw new Error(`the app names ${named.join(', ')}; pack:libs wrote ${[...byName.keys()].join(', ')}`);
  for (const [name, spec] of Object.entries(manifest.dependencies)) {
    if (!/^file:.+\.tgz$/.test(spec)) throw new Error(`${name} is not a packed file: ${spec}`);
    manifest.dependencies[name] = `file:${byName.get(name)}`;
  }
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return dir;
}

/** The installed @gw packages: real folders inside `dir`, none a link back into the repository. */
export function installedPackages(dir: string): string[] {
  const scope = join(dir, 'node_modules/@gw');
  return readdirSync(scope).map((name) => {
    const path = join(scope, name);
    if (lstatSync(path).isSymbolicLink()) throw new Error(`${path} is a symbolic link`);
    if (realpathSync(path).startsWith(ROOT)) throw new Error(`${path} resolves into the repository`);
    return `@gw/${name}`;
  });
}

/** Every entry point a package's `exports` names (its `./package.json` aside), as import specifiers. */
export function entryPoints(dir: string, name: string): string[] {
  const manifest = JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as {
    exports: Record<string, unknown>;
  };
  return Object.keys(manifest.exports)
    .filter((key) => key !== './package.json')
    .map((key) => (key === '.' ? name : `${name}/${key.slice(2)}`));
}
