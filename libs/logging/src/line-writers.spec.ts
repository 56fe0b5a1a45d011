import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { droppingLineWriter, turnLineWriter } from './line-writers';
import { createLogger } from './logger';

const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
const at = new Date('2026-01-01T00:00:00.000Z');

/** A sink that accepts at most `room` more bytes (a disk with that much left), then throws ENOSPC. */
function disk(room: number) {
  const state = { room, text: '' };
  const write = (bytes: Uint8Array) => {
    if (state.room === 0) throw enospc();
    const n = Math.min(bytes.length, state.room);
    state.room -= n;
    state.text += Buffer.from(bytes.subarray(0, n)).toString('utf8');
    return n;
  };
  return { state, write };
}

describe('droppingLineWriter', () => {
  it('writes lines as they come while the disk has room', () => {
    const { state, write } = disk(Infinity);
    const writer = droppingLineWriter(write, () => at);
    writer('{"a":1}\n');
    writer('{"b":2}\n');
    expect(state.text).toBe('{"a":1}\n{"b":2}\n');
  });

  it('drops lines while the disk is full, never throws, and says how many were lost once it has room again', () => {
    const { state, write } = disk(0);
    const writer = droppingLineWriter(write, () => at);
    expect(() => {
      writer('{"lost":1}\n');
      writer('{"lost":2}\n');
    }).not.toThrow();
    state.room = Infinity;
    writer('{"kept":3}\n');
    writer('{"kept":4}\n');
    const records = state.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records).toEqual([
      {
        time: at.toISOString(),
        level: 'warn',
        msg: 'log lines were lost: the log could not be written',
        dropped: 2,
        since: at.toISOString(),
        error: 'ENOSPC',
      },
      { kept: 3 },
      { kept: 4 },
    ]);
  });

  it('ends a line the full disk cut short, so that every later line is a record of its own', () => {
    const { state, write } = disk(5);
    const writer = droppingLineWriter(write, () => at);
    writer('{"cut":"short"}\n');
    state.room = Infinity;
    writer('{"next":1}\n');
    const lines = state.text.split('\n');
    expect(lines[0]).toBe('{"cut');
    expect(lines.slice(1).map((line) => (line ? JSON.parse(line) : line))).toEqual([
      expect.objectContaining({ dropped: 1, error: 'ENOSPC' }),
      { next: 1 },
      '',
    ]);
  });

  it('counts each line of several given at once that the full disk kept out', () => {
    const { state, write } = disk(3);
    const writer = droppingLineWriter(write, () => at);
    writer('{"a":1}\n{"b":2}\n{"c":3}\n');
    state.room = Infinity;
    writer('{"next":1}\n');
    const lines = state.text.split('\n');
    expect(lines[0]).toBe('{"a');
    expect(JSON.parse(lines[1])).toEqual(expect.objectContaining({ dropped: 3, error: 'ENOSPC' }));
    expect(lines.slice(2)).toEqual(['{"next":1}', '']);
  });

  it('counts a write that makes no progress as a failure instead of looping', () => {
    const writer = droppingLineWriter(
      () => 0,
      () => at,
    );
    expect(() => writer('{"a":1}\n')).not.toThrow();
  });

  it('writes to a real file descriptor, as stdout redirected to a file is written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-log-'));
    const file = join(dir, 'log');
    const fd = openSync(file, 'a');
    try {
      createLogger(
        'info',
        { app: 't' },
        droppingLineWriter((bytes) => writeSync(fd, bytes)),
      ).info('hello');
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(expect.objectContaining({ app: 't', msg: 'hello' }));
    } finally {
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('turnLineWriter', () => {
  const turnEnd = () => new Promise((done) => setImmediate(done));

  it("writes one turn's lines together, once the turn is over", async () => {
    const writes: string[] = [];
    const lines = turnLineWriter((text) => void writes.push(text));
    lines.write('{"a":1}\n');
    lines.write('{"b":2}\n');
    expect(writes).toEqual([]);
    await turnEnd();
    expect(writes).toEqual(['{"a":1}\n{"b":2}\n']);
    lines.write('{"c":3}\n');
    await turnEnd();
    expect(writes).toEqual(['{"a":1}\n{"b":2}\n', '{"c":3}\n']);
  });

  it('writes at once when what is held back reaches its bound', () => {
    const writes: string[] = [];
    const lines = turnLineWriter(
      (text) => void writes.push(text),
      16,
      () => undefined,
    );
    lines.write('{"a":1}\n');
    expect(writes).toEqual([]);
    lines.write('{"b":2}\n');
    expect(writes).toEqual(['{"a":1}\n{"b":2}\n']);
  });

  it('writes what it holds on flushFromNowOn, then every line as it comes', () => {
    const writes: string[] = [];
    const lines = turnLineWriter(
      (text) => void writes.push(text),
      65_536,
      () => undefined,
    );
    lines.write('{"a":1}\n');
    lines.flushFromNowOn();
    expect(writes).toEqual(['{"a":1}\n']);
    lines.write('{"b":2}\n');
    expect(writes).toEqual(['{"a":1}\n', '{"b":2}\n']);
  });

  describe("a process's standard output (a real child process)", () => {
    const built = resolve(__dirname, '../../..', 'dist/libs/logging/src/logger.js');
    const child = (ending: string, stdout: 'pipe' | number) =>
      spawnSync(
        process.execPath,
        [
          '-e',
          `const logger = require(${JSON.stringify(built)}).createLogger('info', { app: 't' });
           for (let i = 0; i < 3; i += 1) logger.info('line ' + i);
           ${ending}`,
        ],
        { stdio: ['ignore', stdout, 'pipe'], encoding: 'utf8' },
      );
    const messages = (text: string) =>
      text
        .trimEnd()
        .split('\n')
        .map((line) => (JSON.parse(line) as { msg: string }).msg);

    it.each([
      ['process.exit', 'process.exit(3)', 3],
      ['an uncaught error', "throw new Error('boom')", 1],
      ['the event loop running out of work', '', 0],
    ])('writes the lines it held back when the process ends by %s', (_, ending, status) => {
      const result = child(ending, 'pipe');
      expect(result.status).toBe(status);
      expect(messages(result.stdout)).toEqual(['line 0', 'line 1', 'line 2']);
    });

    it('writes them into a file too, as `npm start > gateway.log` does', () => {
      const dir = mkdtempSync(join(tmpdir(), 'gw-log-'));
      const file = join(dir, 'log');
      const fd = openSync(file, 'a');
      try {
        expect(child('process.exit(0)', fd).status).toBe(0);
        expect(messages(readFileSync(file, 'utf8'))).toEqual(['line 0', 'line 1', 'line 2']);
      } finally {
        closeSync(fd);
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
