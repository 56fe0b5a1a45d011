import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { ApiProcess, appEntryArgs, NotifierProcess } from '@gw/testing';
import { sleep } from './env';

/**
 * A built app started as libs/testing starts it (same entry point, path aliases and test
 * environment), except that its stdout and stderr go straight to `logFile`, as with
 * `npm start > data/gateway.log`: log lines are written by the app itself, to a file that may sit
 * on a full disk.
 */
export class FileLoggedProcess {
  ports: Record<string, number> = {};
  private child?: ChildProcess;
  private exited?: Promise<number | null>;

  constructor(
    readonly app: 'api' | 'notifier',
    readonly dataDir: string,
    readonly logFile: string,
    readonly env: Record<string, string> = {},
  ) {}

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  get pid(): number | undefined {
    return this.running ? this.child!.pid : undefined;
  }

  /** Everything the app has logged so far. */
  get output(): string {
    return existsSync(this.logFile) ? readFileSync(this.logFile, 'utf8') : '';
  }

  url(host: string): string {
    return `http://127.0.0.1:${this.ports[host]}`;
  }

  async start(): Promise<void> {
    const env = (
      this.app === 'api' ? new ApiProcess(this.dataDir, this.env) : new NotifierProcess(this.dataDir, this.env)
    ).processEnv();
    const fd = openSync(this.logFile, 'a', 0o600);
    const child = spawn(process.execPath, appEntryArgs(this.app), { env, stdio: ['ignore', fd, fd] });
    closeSync(fd);
    this.child = child;
    this.exited = new Promise((done) => child.once('exit', (code) => done(code)));
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ready = this.output.split('\n').find((line) => line.includes('"msg":"ready"'));
      if (ready) {
        this.ports = (JSON.parse(ready) as { ports: Record<string, number> }).ports;
        return;
      }
      if (!this.running || Date.now() > deadline) throw new Error(`${this.app} did not become ready:\n${this.output}`);
      await sleep(50);
    }
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (!this.running) return this.child?.exitCode ?? null;
    this.child!.kill(signal);
    return this.exited!;
  }
}
