import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PROBE_FLAGS, relaunchOptions } from './probe-flags';

// The built module (`npm test` builds first), as the bench's built main uses it.
const BUILT = resolve(__dirname, '../../../../dist/tools/bench/src/support/probe-flags.js');

describe("the bench's probe flags", () => {
  it('asks for a relaunch with the missing flags ahead of the options the process was started with', () => {
    expect(relaunchOptions(['-r', 'tsconfig-paths/register'])).toEqual([
      '--no-memory-reducer',
      '-r',
      'tsconfig-paths/register',
    ]);
    expect(relaunchOptions([])).toEqual([...PROBE_FLAGS]);
  });

  it('asks for none when every flag is there', () => {
    expect(relaunchOptions(['--no-memory-reducer', '-r', 'x'])).toBeUndefined();
  });

  describe('a script that uses it', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'gw-probe-flags-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    /** Runs a script that relaunches itself, then reports how it runs (or waits, to be stopped). */
    function start(body: string, args: string[] = []) {
      const script = join(dir, 'script.js');
      writeFileSync(script, `if (!require(${JSON.stringify(BUILT)}).relaunchWithProbeFlags()) {\n${body}\n}\n`);
      const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
        child.on('exit', (code, signal) => done({ code, signal })),
      );
      return { child, exited, output: () => out };
    }

    it('runs again with the flags and the same arguments, and exits as the relaunched process does', async () => {
      const run = start(
        'console.log(JSON.stringify({ execArgv: process.execArgv, args: process.argv.slice(2) })); process.exitCode = 3;',
        ['--only', 'i'],
      );
      expect(await run.exited).toEqual({ code: 3, signal: null });
      expect(JSON.parse(run.output())).toEqual({ execArgv: ['--no-memory-reducer'], args: ['--only', 'i'] });
    });

    it('passes on SIGTERM, so that stopping the bench stops the run', async () => {
      const run = start('console.log(process.pid); setInterval(() => undefined, 1000);');
      // The relaunched process says its pid once it runs.
      for (let tries = 0; !run.output().trim() && tries < 200; tries++) await new Promise((r) => setTimeout(r, 25));
      const relaunched = Number(run.output().trim());
      expect(relaunched).toBeGreaterThan(0);
      expect(relaunched).not.toBe(run.child.pid);
      run.child.kill('SIGTERM');
      expect((await run.exited).code).toBe(1);
      // Gone too: signal 0 tests whether a process exists.
      expect(() => process.kill(relaunched, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    });
  });
});
