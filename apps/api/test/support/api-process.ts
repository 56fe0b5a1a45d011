import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** Repository root; the apps run from their build output in dist/ (`npm test` builds first). */
export const ROOT = resolve(__dirname, '../../../..');
const PATHS = join(ROOT, 'tools/runtime/paths.js');
const API_MAIN = join(ROOT, 'dist/apps/api/src/main.js');
const OPS_MAIN = join(ROOT, 'dist/tools/ops/src/main.js');

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'gw-e2e-'));
}

/** A real API process on ephemeral ports, with its output captured for log assertions. */
export class ApiProcess {
  accountUrl = '';
  apiUrl = '';
  internalUrl = '';
  output = '';
  private child?: ChildProcess;
  private exited?: Promise<number | null>;

  constructor(
    readonly dataDir: string,
    readonly env: Record<string, string> = {},
  ) {}

  static async start(options: { dataDir?: string; env?: Record<string, string> } = {}): Promise<ApiProcess> {
    const api = new ApiProcess(options.dataDir ?? tempDataDir(), options.env);
    await api.start();
    return api;
  }

  /** The environment the API runs with: test mode, loopback, ephemeral ports, this data dir. */
  processEnv(): NodeJS.ProcessEnv {
    return {
      PATH: process.env['PATH'],
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      ACCOUNT_PORT: '0',
      API_PORT: '0',
      INTERNAL_PORT: '0',
      DATA_DIR: this.dataDir,
      ...this.env,
    };
  }

  async start(): Promise<void> {
    const child = spawn(process.execPath, ['-r', PATHS, API_MAIN], { env: this.processEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.exited = new Promise((done) => child.once('exit', (code) => done(code)));
    const ready = new Promise<void>((done, fail) => {
      let pending = '';
      const timer = setTimeout(() => fail(new Error(`API did not become ready:\n${this.output}`)), 30_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        const text = chunk.toString();
        this.output += text;
        pending += text;
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          if (!line.includes('"msg":"ready"')) continue;
          const { ports } = JSON.parse(line) as { ports: { account: number; instance: number; internal: number } };
          this.accountUrl = `http://127.0.0.1:${ports.account}`;
          this.apiUrl = `http://127.0.0.1:${ports.instance}`;
          this.internalUrl = `http://127.0.0.1:${ports.internal}`;
          clearTimeout(timer);
          done();
        }
      });
      child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
      void this.exited!.then((code) => {
        clearTimeout(timer);
        fail(new Error(`API exited with ${code} before it was ready:\n${this.output}`));
      });
    });
    await ready;
  }

  /** Sends a signal and waits for the process to exit; resolves with its exit code. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) return this.child?.exitCode ?? null;
    this.child.kill(signal);
    return this.exited!;
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  removeData(): void {
    rmSync(this.dataDir, { recursive: true, force: true });
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

/** Creates an account through the operator CLI and returns its credentials. */
export function createAccount(dataDir: string, email: string): { email: string; apikey: string } {
  const result = runOps(dataDir, ['accounts', 'create', '--email', email]);
  if (result.status !== 0) throw new Error(`accounts create failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as { email: string; apikey: string };
}
