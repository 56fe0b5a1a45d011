import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chainHash, storedChain, verifyStreamChain } from '../event-chain';
import { SqliteEventStore } from './sqlite-event-store';

/** Replaces the one occurrence of `from` in the file by `to` (same length), as a hand edit would. */
function editFile(file: string, from: string, to: string): void {
  const bytes = readFileSync(file);
  const at = bytes.indexOf(Buffer.from(from));
  expect(at).toBeGreaterThanOrEqual(0);
  expect(bytes.indexOf(Buffer.from(from), at + 1)).toBe(-1);
  Buffer.from(to).copy(bytes, at);
  writeFileSync(file, bytes);
}

describe('embedded SQLite store: an event edited in the store file', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-tamper-'));
    file = join(dir, 'events.sqlite');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes three events to one stream and others around it, then closes the store (which copies
   * the write-ahead log into the database file); returns the middle event's distinctive value. */
  async function writeAndClose(): Promise<string> {
    const marker = randomBytes(8).toString('hex');
    const store = new SqliteEventStore({ file });
    await store.append('other-1', [{ id: 'o1', type: 'T', data: { n: 0 } }], 'no_stream');
    await store.append('s-1', [{ id: 'e0', type: 'T', data: { amount: 'first' } }], 'no_stream');
    await store.append(
      's-1',
      [
        { id: 'e1', type: 'T', data: { amount: marker } },
        { id: 'e2', type: 'T', data: { amount: 'last' } },
      ],
      0n,
    );
    await store.append('other-1', [{ id: 'o2', type: 'T', data: { n: 1 } }], 0n);
    expect(verifyStreamChain(await store.readStream('s-1'))).toEqual({ ok: true });
    await store.close();
    return marker;
  }

  it('breaks the chain at that stream and revision when one byte of its data is changed', async () => {
    const marker = await writeAndClose();
    editFile(file, marker, `${marker[0] === 'f' ? 'e' : 'f'}${marker.slice(1)}`);
    const store = new SqliteEventStore({ file });
    try {
      const events = await store.readStream('s-1');
      expect(events[1].data).not.toEqual({ amount: marker });
      expect(verifyStreamChain(events)).toMatchObject({
        ok: false,
        revision: 1n,
        reason: expect.stringContaining('does not match its hash'),
      });
      expect(verifyStreamChain(await store.readStream('other-1'))).toEqual({ ok: true });
    } finally {
      await store.close();
    }
  });

  it('still reads an event whose data is no longer JSON, marked, and the chain names it', async () => {
    const marker = await writeAndClose();
    editFile(file, `"${marker}"`, `x${marker}"`);
    const store = new SqliteEventStore({ file });
    try {
      const events = await store.readStream('s-1');
      expect(events.map((e) => e.id)).toEqual(['e0', 'e1', 'e2']);
      expect(events[1]).toMatchObject({ data: undefined, metadata: { $unreadable: ['data'] } });
      expect(verifyStreamChain(events)).toEqual({ ok: false, revision: 1n, reason: 'stored data is not valid JSON' });
      expect(await store.readAll()).toHaveLength(5);
      // Appends to the stream go on, chained to its last event; the break stays where it was.
      await store.append('s-1', [{ id: 'e3', type: 'T', data: {} }], 2n);
      const [, , e2, e3] = await store.readStream('s-1');
      expect(storedChain(e3)).toBe(chainHash(storedChain(e2)!, e3));
      expect(verifyStreamChain(await store.readStream('s-1'))).toMatchObject({ ok: false, revision: 1n });
    } finally {
      await store.close();
    }
  });
});
