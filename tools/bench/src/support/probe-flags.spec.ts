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

    /** Runs a script that relaunches itself, then reports how it runs (or waits, to be stopped). A
     * relaunch that went on relaunching stops at the third process, with exit code 99. */
    function start(body: string, args: string[] = []) {
      const script = join(dir, 'script.js');
      writeFileSync(
        script,
        [
          'const depth = Number(process.env.PROBE_FLAGS_DEPTH ?? 0) + 1;',
          'if (depth > 2) process.exit(99);',
          'process.env.PROBE_FLAGS_DEPTH = String(depth);',
          `if (!require(${JSON.stringify(BUILT)}).relaunchWithProbeFlags()) {`,
          body,
          '}',
        ].join('\n'),
      );
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

    it('passes on SIGTERM, so that stopping the bench stops the run, and ends by it', async () => {
      // The relaunched process stops by itself after a minute, should the test fail before it does.
      const run = start('console.log(process.pid); setTimeout(() => undefined, 60_000);');
      let relaunched = 0;
      try {
        // The relaunched process says its pid once it runs.
        for (let tries = 0; !run.output().trim() && tries < 800; tries++) await new Promise((r) => setTimeout(r, 25));
        relaunched = Number(run.output().trim());
        expect(relaunched).toBeGreaterThan(0);
        expect(relaunched).not.toBe(run.child.pid);
        run.child.kill('SIGTERM');
        expect(await run.exited).toEqual({ code: null, signal: 'SIGTERM' });
        // Gone too: signal 0 tests whether a process exists.
        expect(() => process.kill(relaunched, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
      } finally {
        for (const pid of [run.child.pid, relaunched])
          try {
            if (pid) process.kill(pid, 'SIGKILL');
          } catch {
            // Already gone, as it should be.
          }
      }
    }, 30_000);
  });
});
