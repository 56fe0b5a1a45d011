import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** Repository root; the apps run from their build output in dist/ (`npm test` builds first). */
export const ROOT = resolve(__dirname, '../../..');
const PATHS = join(ROOT, 'tools/runtime/paths.js');
const MAINS = {
  api: join(ROOT, 'dist/apps/api/src/main.js'),
  notifier: join(ROOT, 'dist/apps/notifier/src/main.js'),
};
const OPS_MAIN = join(ROOT, 'dist/tools/ops/src/main.js');

/** A new data dir, inside the Jest run's own temp folder (tools/jest/test-temp-dir.js), which is
 * removed when the run ends. */
export function tempDataDir(): string {
  return mkdtempSync(join(process.env['GW_TEST_TMP'] ?? tmpdir(), 'gw-e2e-'));
}

/** A built app running as a real child process on ephemeral loopback ports, with its output
 * captured for log assertions. `ports` comes from the app's JSON `ready` log line. */
export class AppProcess {
  output = '';
  ports: Record<string, number> = {};
  /** Node options put before the entry point on the next start, e.g. `--inspect=127.0.0.1:0`. */
  nodeArgs: string[] = [];
  private child?: ChildProcess;
  private exited?: Promise<number | null>;

  constructor(
    readonly app: keyof typeof MAINS,
    readonly dataDir: string,
    readonly env: Record<string, string> = {},
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
    const child = spawn(process.execPath, [...this.nodeArgs, '-r', PATHS, MAINS[this.app]], { env: this.processEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.exited = new Promise((done) => child.once('exit', (code) => done(code)));
    await new Promise<void>((done, fail) => {
      let pending = '';
      const timer = setTimeout(() => fail(new Error(`${this.app} did not become ready:\n${this.output}`)), 60_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        const text = chunk.toString();
        this.output += text;
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
      child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
      void this.exited!.then((code) => {
        clearTimeout(timer);
        fail(new Error(`${this.app} exited with ${code} before it was ready:\n${this.output}`));
      });
    });
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

/** Runs the operator CLI against a data dir, synchronously. */
export function runOps(dataDir: string, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, ['-r', PATHS, OPS_MAIN, ...args], {
    env: { PATH: process.env['PATH'], NODE_ENV: 'test', DATA_DIR: dataDir, ...env },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Runs the operator CLI without blocking this process: needed when a server the CLI talks to runs
 * in this process (the EventStoreDB test double), which a synchronous spawn would starve.
 */
export function runOpsAsync(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', PATHS, OPS_MAIN, ...args],
      { env: { PATH: process.env['PATH'], NODE_ENV: 'test', DATA_DIR: dataDir, ...env }, encoding: 'utf8', timeout: 60_000 },
      (error, stdout, stderr) => resolve({ status: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Creates an account through the operator CLI and returns its credentials. Give it the apps'
 * environment when that sets SECRETS_KEY: an account is found by a hash keyed with it. */
export function createAccount(dataDir: string, email: string, env: Record<string, string> = {}): { email: string; apikey: string } {
  const result = runOps(dataDir, ['accounts', 'create', '--email', email], env);
  if (result.status !== 0) throw new Error(`accounts create failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as { email: string; apikey: string };
}
