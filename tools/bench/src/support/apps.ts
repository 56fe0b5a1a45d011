import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppProcess } from '@gw/testing';
import { PROFILES_DIR } from './paths';

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

/** Resident memory of a process in bytes (VmRSS), and its peak (VmHWM). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

/** CPU seconds (user + system) a process has used so far, from /proc (clock ticks of 1/100 s). */
function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export interface AppOptions {
  dataDir: string;
  secrets: Secrets;
  env?: Record<string, string>;
  /** Writes a CPU profile of the app into bench/profiles/<label>/ when it stops. */
  profileLabel?: string;
  readyTimeoutMs?: number;
  /** How often `/healthz` is asked while the app starts (AppProcessOptions.readyPollMs). */
  readyPollMs?: number;
}

/** A built app as @gw/testing starts it for the e2e tests, with the bench's environment. It logs at
 * `warn`, so there is no `ready` line to read the ports from: they are chosen before the start and
 * the app is ready once `/healthz` answers 200. */
export class AppChild extends AppProcess {
  static async start(app: 'api' | 'notifier', options: AppOptions): Promise<AppChild> {
    const env = {
      LOG_LEVEL: 'warn',
      INTERNAL_TOKEN: options.secrets.internalToken,
      SECRETS_KEY: options.secrets.secretsKey,
      SHUTDOWN_GRACE_MS: '2000',
      ...options.env,
    };
    const child = new AppChild(app, options.dataDir, env, {
      readyBy: 'healthz',
      readyTimeoutMs: options.readyTimeoutMs ?? 120_000,
      readyPollMs: options.readyPollMs,
      keepOutput: 32 * 1024,
    });
    if (options.profileLabel)
      child.nodeArgs = ['--cpu-prof', `--cpu-prof-dir=${join(PROFILES_DIR, options.profileLabel)}`];
    await child.start();
    return child;
  }

  /** The app's process id; it runs from `start` until `stop`. */
  override get pid(): number {
    const pid = super.pid;
    if (pid === undefined) throw new Error(`${this.app} is not running:\n${this.output}`);
    return pid;
  }

  memory(): { rss: number; peak: number } {
    return memoryOf(this.pid);
  }

  /** CPU seconds (user + system) the app has used since it started. */
  cpuSeconds(): number {
    return cpuSecondsOf(this.pid);
  }

  /** Stops the app with SIGTERM; an exit code other than 0 is an error of the run. */
  override async stop(): Promise<number | null> {
    const code = await super.stop();
    if (code !== 0) throw new Error(`${this.app} exited with ${code}:\n${this.output}`);
    return code;
  }
}
