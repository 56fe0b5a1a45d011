import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { droppingLineWriter } from './line-writers';
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
