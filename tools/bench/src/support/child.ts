import { spawn, type ChildProcess } from 'node:child_process';
import { BUILT_ENV, builtEntryArgs, ROOT } from '@gw/testing';
import { childScript } from './paths';

const KEEP_OUTPUT = 64 * 1024;

/** A bench child: a compiled script of tools/bench run in its own process, talking JSON lines on
 * stdout. The last line it prints is its result. */
export class NodeChild {
  output = '';
  private readonly lines: unknown[] = [];
  private readonly waiters: Array<(line: unknown) => void> = [];
  readonly exited: Promise<number | null>;

  private constructor(readonly process: ChildProcess) {
    let pending = '';
    process.stdout!.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      this.keep(text);
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        const parsed: unknown = JSON.parse(line);
        this.lines.push(parsed);
        this.waiters.shift()?.(parsed);
      }
    });
    process.stderr!.on('data', (chunk: Buffer) => this.keep(chunk.toString()));
    this.exited = new Promise((resolve) => process.once('exit', (code) => resolve(code)));
  }

  static start(
    script: string,
    args: string[] = [],
    options: { env?: Record<string, string>; nodeArgs?: string[] } = {},
  ): NodeChild {
    const child = spawn(process.execPath, [...builtEntryArgs(childScript(script), options.nodeArgs), ...args], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'], ...BUILT_ENV, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new NodeChild(child);
  }

  get pid(): number {
    return this.process.pid!;
  }

  /** The next JSON line the child prints (the first one, if none was read yet). */
  nextLine<T>(timeoutMs = 600_000): Promise<T> {
    const ready = this.lines.length > this.consumed ? this.lines[this.consumed] : undefined;
    if (ready !== undefined) {
      this.consumed += 1;
      return Promise.resolve(ready as T);
    }
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`bench child gave no answer in time:\n${this.output}`)),
        timeoutMs,
      );
      const waiter = (line: unknown) => {
        clearTimeout(timer);
        this.consumed += 1;
        resolve(line as T);
      };
      this.waiters.push(waiter);
      void this.exited.then((code) => {
        if (!this.waiters.includes(waiter)) return;
        clearTimeout(timer);
        reject(new Error(`bench child exited with ${code}:\n${this.output}`));
      });
    });
  }

  async stop(): Promise<void> {
    if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill('SIGTERM');
    await this.exited;
  }

  private consumed = 0;

  private keep(text: string): void {
    this.output = (this.output + text).slice(-KEEP_OUTPUT);
  }
}

/** Runs a child to its end and returns the last JSON line it printed; fails on a non-zero exit. */
export async function runChild<T>(
  script: string,
  args: string[] = [],
  options: { env?: Record<string, string>; nodeArgs?: string[] } = {},
): Promise<T> {
  const child = NodeChild.start(script, args, options);
  const code = await child.exited;
  const last = child.output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .pop();
  if (code !== 0 || !last) throw new Error(`bench child ${script} exited with ${code}:\n${child.output}`);
  return JSON.parse(last) as T;
}

/** For the children: prints one result line. */
export function emit(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}\n`);
}

/** For the children: `--name value` pairs. */
export function childArgs(argv = process.argv.slice(2)): Map<string, string> {
  const args = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) args.set(argv[i].replace(/^--/, ''), argv[i + 1]);
  return args;
}

export function required(args: Map<string, string>, name: string): string {
  const value = args.get(name);
  if (value === undefined) throw new Error(`--${name} is required`);
  return value;
}
