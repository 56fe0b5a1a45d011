import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { APP_MAINS, PATHS_HOOK, PROFILES_DIR, ROOT } from './paths';

/**
 * Starts the BUILT apps as real processes. (@gw/testing's AppProcess does the same for the e2e
 * tests, but it finds dist/ relative to its own source file, so it works only under Jest, not from
 * dist/ where the bench runs.) The apps log at `warn`, so there is no `ready` line to read the ports
 * from: the ports are chosen here and the app is ready once `/healthz` answers 200.
 */

/** Secrets shared by every process of one bench data dir. */
export interface Secrets {
  internalToken: string;
  secretsKey: string;
}

export function newSecrets(): Secrets {
  return { internalToken: `bench-${randomBytes(16).toString('hex')}`, secretsKey: randomBytes(32).toString('hex') };
}

export function tempDir(label: string): string {
  mkdirSync(join(tmpdir(), 'gw-bench'), { recursive: true });
  return mkdtempSync(join(tmpdir(), 'gw-bench', `${label}-`));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Resident memory of a process in bytes (VmRSS), and its peak (VmHWM). */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

export interface AppOptions {
  dataDir: string;
  secrets: Secrets;
  env?: Record<string, string>;
  /** Writes a CPU profile of the app into bench/profiles/<label>/ when it stops. */
  profileLabel?: string;
  readyTimeoutMs?: number;
}

export class AppChild {
  private output = '';
  private readonly exited: Promise<number | null>;

  private constructor(
    readonly app: keyof typeof APP_MAINS,
    private readonly child: ChildProcess,
    readonly ports: Record<string, number>,
  ) {
    const keep = (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-32 * 1024));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  static async start(app: keyof typeof APP_MAINS, options: AppOptions): Promise<AppChild> {
    const ports: Record<string, number> =
      app === 'api'
        ? { account: await freePort(), instance: await freePort(), internal: await freePort() }
        : { notifier: await freePort() };
    const env: NodeJS.ProcessEnv = {
      PATH: process.env['PATH'],
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      ACCOUNT_PORT: String(ports.account ?? 0),
      API_PORT: String(ports.instance ?? 0),
      INTERNAL_PORT: String(ports.internal ?? 0),
      NOTIFIER_PORT: String(ports.notifier ?? 0),
      DATA_DIR: options.dataDir,
      INTERNAL_TOKEN: options.secrets.internalToken,
      SECRETS_KEY: options.secrets.secretsKey,
      // The load comes from one address at rates far above any per-client limit (0 = off).
      RATE_LIMIT_ACCOUNT_PER_MINUTE: '0',
      RATE_LIMIT_INSTANCE_PER_MINUTE: '0',
      RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '0',
      SHUTDOWN_GRACE_MS: '2000',
      ...options.env,
    };
    const nodeArgs = options.profileLabel ? ['--cpu-prof', `--cpu-prof-dir=${join(PROFILES_DIR, options.profileLabel)}`] : [];
    const child = spawn(process.execPath, [...nodeArgs, '-r', PATHS_HOOK, APP_MAINS[app]], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const started = new AppChild(app, child, ports);
    await started.waitReady(options.readyTimeoutMs ?? 120_000);
    return started;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** `http://127.0.0.1:<port>` of one of the app's listeners. */
  url(host: 'account' | 'instance' | 'internal' | 'notifier'): string {
    return `http://127.0.0.1:${this.ports[host]}`;
  }

  memory(): { rss: number; peak: number } {
    return memoryOf(this.pid);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    const code = await this.exited;
    if (code !== 0) throw new Error(`${this.app} exited with ${code}:\n${this.output}`);
  }

  private async waitReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const url = `${this.url(this.app === 'api' ? 'instance' : 'notifier')}/healthz`;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) throw new Error(`${this.app} exited with ${this.child.exitCode} before it was ready:\n${this.output}`);
      const ok = await fetch(url).then((r) => r.ok, () => false);
      if (ok) return;
      await sleep(50);
    }
    this.child.kill('SIGKILL');
    throw new Error(`${this.app} was not ready within ${timeoutMs} ms:\n${this.output}`);
  }
}
