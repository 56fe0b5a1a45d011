import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePorts } from './free-ports';

/** The nearest folder up from `start` that holds tsconfig.runtime.json: this file runs from
 * libs/testing/src under Jest, and from dist/libs/testing/src in the benchmarks. */
function findRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'tsconfig.runtime.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no repository root above ${start}`);
  }
}

/** Repository root; the apps run from their build output in dist/ (`npm test` builds first). */
export const ROOT = findRoot(__dirname);

/** What a tool's built script in dist/ (not bundled, unlike the apps) needs: tsconfig-paths finds
 * the `@gw/*` aliases in dist/ (tsconfig.runtime.json). Give the child BUILT_ENV and builtEntryArgs. */
export const BUILT_ENV = { TS_NODE_PROJECT: join(ROOT, 'tsconfig.runtime.json') };
/** Node's arguments that run a tool's built script (absolute, or from the root) after `nodeArgs`. */
export function builtEntryArgs(entry: string, nodeArgs: readonly string[] = []): string[] {
  return [...nodeArgs, '-r', require.resolve('tsconfig-paths/register'), resolve(ROOT, entry)];
}

/** The apps' and the operator CLI's entry points (bundles), and the apps' Node options, shared with
 * `npm start` (tools/apps.js, which says why). */
type Apps = { APPS: Record<'api' | 'notifier', string>; APP_NODE_ARGS: string[]; BUNDLES: { ops: { to: string } } };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { APPS, APP_NODE_ARGS, BUNDLES } = require(join(ROOT, 'tools/apps.js')) as Apps;

/** Node's arguments that run `app` as `npm start` runs it, after `nodeArgs`. */
export function appEntryArgs(app: keyof typeof APPS, nodeArgs: readonly string[] = []): string[] {
  return [...APP_NODE_ARGS, ...nodeArgs, resolve(ROOT, APPS[app])];
}

/** The operator CLI's entry point, absolute (`npm run ops` runs it). */
export const OPS_MAIN = resolve(ROOT, BUNDLES.ops.to);

/** Each app's listeners, by the variable that sets its port. */
const PORT_VARIABLES: Record<keyof typeof APPS, Record<string, string>> = {
  api: { account: 'ACCOUNT_PORT', instance: 'API_PORT', internal: 'INTERNAL_PORT' },
  notifier: { notifier: 'NOTIFIER_PORT' },
};

/** A new data dir, inside the Jest run's own temp folder (tools/jest/test-temp-dir.js), which is
 * removed when the run ends. */
export function tempDataDir(): string {
  return mkdtempSync(join(process.env['GW_TEST_TMP'] ?? tmpdir(), 'gw-e2e-'));
}

export interface AppProcessOptions {
  /** How `start` learns that the app is ready: from its `ready` log line, which names its ports
   * (the default), or from `/healthz` answering 200 on ports chosen before the start, for an app
   * that logs at `warn` or above (the benchmarks, where a log line per request would cost). */
  readyBy?: 'log' | 'healthz';
  /** 60 s unless set. */
  readyTimeoutMs?: number;
  /** With `readyBy: 'healthz'`, ms between two looks (50 unless set; a timed start wants fewer). */
  readyPollMs?: number;
  /** Keep only the last this many characters of output (a long benchmark run); all by default. */
  keepOutput?: number;
}

/** A built app running as a real child process on ephemeral loopback ports, with its output
 * captured for log assertions. `ports` comes from the app's JSON `ready` log line (or is chosen
 * before the start, see AppProcessOptions). */
export class AppProcess {
  output = '';
  ports: Record<string, number> = {};
  /** Node options put before the entry point on the next start, e.g. `--inspect=127.0.0.1:0`. */
  nodeArgs: string[] = [];
  private child?: ChildProcess;
  private exited?: Promise<number | null>;

  constructor(
    readonly app: keyof typeof APPS,
    readonly dataDir: string,
    readonly env: Record<string, string> = {},
    readonly options: AppProcessOptions = {},
  ) {}

  /** The environment the app runs with: test mode, loopback, ephemeral ports, this data dir. */
  processEnv(): NodeJS.ProcessEnv {
    return {
      PATH: process.env['PATH'],
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      ACCOUNT_PORT: '0',
      API_PORT: '0',
      INTERNAL_PORT: '0',
      NOTIFIER_PORT: '0',
      DATA_DIR: this.dataDir,
      // Rate limits are off unless a test turns them on: most tests send bursts from one address.
      RATE_LIMIT_ACCOUNT_PER_MINUTE: '0',
      RATE_LIMIT_INSTANCE_PER_MINUTE: '0',
      RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '0',
      ...this.env,
    };
  }

  /** The child's process id while it runs. */
  get pid(): number | undefined {
    return this.running ? this.child!.pid : undefined;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  async start(): Promise<void> {
    const readyBy = this.options.readyBy ?? 'log';
    const chosen: Record<string, string> = {};
    if (readyBy === 'healthz') {
      const listeners = Object.entries(PORT_VARIABLES[this.app]);
      const ports = await freePorts(listeners.length);
      listeners.forEach(([listener, variable], i) => {
        this.ports[listener] = ports[i];
        chosen[variable] = String(ports[i]);
      });
    }
    const child = spawn(process.execPath, appEntryArgs(this.app, this.nodeArgs), {
      cwd: ROOT,
      env: { ...this.processEnv(), ...chosen },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.exited = new Promise((done) => child.once('exit', (code) => done(code)));
    child.stderr!.on('data', (chunk: Buffer) => this.keep(chunk.toString()));
    if (readyBy === 'healthz') {
      child.stdout!.on('data', (chunk: Buffer) => this.keep(chunk.toString()));
      await this.untilHealthy();
      return;
    }
    await new Promise<void>((done, fail) => {
      let pending = '';
      const timer = setTimeout(
        () => fail(new Error(`${this.app} did not become ready:\n${this.output}`)),
        this.options.readyTimeoutMs ?? 60_000,
      );
      child.stdout!.on('data', (chunk: Buffer) => {
        const text = chunk.toString();
        this.keep(text);
        pending += text;
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          if (!line.includes('"msg":"ready"')) continue;
          this.ports = (JSON.parse(line) as { ports: Record<string, number> }).ports;
          clearTimeout(timer);
          done();
        }
      });
      void this.exited!.then((code) => {
        clearTimeout(timer);
        fail(new Error(`${this.app} exited with ${code} before it was ready:\n${this.output}`));
      });
    });
  }

  private keep(text: string): void {
    this.output += text;
    const keep = this.options.keepOutput;
    if (keep !== undefined && this.output.length > keep) this.output = this.output.slice(-keep);
  }

  /** Waits until /healthz answers 200; a start that takes too long is killed. */
  private async untilHealthy(): Promise<void> {
    const timeoutMs = this.options.readyTimeoutMs ?? 60_000;
    const deadline = Date.now() + timeoutMs;
    const url = `${this.url(this.app === 'api' ? 'instance' : 'notifier')}/healthz`;
    while (Date.now() < deadline) {
      if (!this.running)
        throw new Error(`${this.app} exited with ${this.child?.exitCode} before it was ready:\n${this.output}`);
      const healthy = await fetch(url).then(
        (r) => r.ok,
        () => false,
      );
      if (healthy) return;
      await sleep(this.options.readyPollMs ?? 50);
    }
    this.child?.kill('SIGKILL');
    throw new Error(`${this.app} was not ready within ${timeoutMs} ms:\n${this.output}`);
  }

  /** Sends a signal and waits for the process to exit; resolves with its exit code. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (!this.running) return this.child?.exitCode ?? null;
    this.child!.kill(signal);
    return this.exited!;
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  removeData(): void {
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  url(host: string): string {
    return `http://127.0.0.1:${this.ports[host]}`;
  }
}

/** The API: account, instance and internal ingest hosts. */
export class ApiProcess extends AppProcess {
  constructor(dataDir: string, env: Record<string, string> = {}) {
    super('api', dataDir, env);
  }

  static async start(options: { dataDir?: string; env?: Record<string, string> } = {}): Promise<ApiProcess> {
    const api = new ApiProcess(options.dataDir ?? tempDataDir(), options.env);
    await api.start();
    return api;
  }

  get accountUrl(): string {
    return this.url('account');
  }
  get apiUrl(): string {
    return this.url('instance');
  }
  get internalUrl(): string {
    return this.url('internal');
  }
}

/** The notifier, with /healthz and /metrics on its own port. */
export class NotifierProcess extends AppProcess {
  constructor(dataDir: string, env: Record<string, string> = {}) {
    super('notifier', dataDir, env);
  }

  static async start(dataDir: string, env: Record<string, string> = {}): Promise<NotifierProcess> {
    const notifier = new NotifierProcess(dataDir, env);
    await notifier.start();
    return notifier;
  }

  get statusUrl(): string {
    return this.url('notifier');
  }
}

const opsEnv = (dataDir: string, env: Record<string, string>) => ({
  PATH: process.env['PATH'],
  NODE_ENV: 'test',
  DATA_DIR: dataDir,
  ...env,
});

/** Runs the operator CLI against a data dir, synchronously. */
export function runOps(dataDir: string, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [OPS_MAIN, ...args], { env: opsEnv(dataDir, env), encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Runs the operator CLI without blocking this process: needed when a server the CLI talks to runs
 * in this process (the EventStoreDB test double), which a synchronous spawn would starve.
 */
export function runOpsAsync(
  dataDir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [OPS_MAIN, ...args],
      { env: opsEnv(dataDir, env), encoding: 'utf8', timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ status: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Creates an account through the operator CLI and returns its credentials. Give it the apps'
 * environment when that sets SECRETS_KEY: an account is found by a hash keyed with it. */
export function createAccount(
  dataDir: string,
  email: string,
  env: Record<string, string> = {},
): { email: string; apikey: string } {
  const result = runOps(dataDir, ['accounts', 'create', '--email', email], env);
  if (result.status !== 0) throw new Error(`accounts create failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as { email: string; apikey: string };
}
