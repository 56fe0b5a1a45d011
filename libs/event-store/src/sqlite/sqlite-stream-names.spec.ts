import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from './sqlite-event-store';

describe('stream names of the embedded store', () => {
  let dir: string;
  let store: SqliteEventStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-names-'));
    store = new SqliteEventStore({ file: join(dir, 'events.sqlite') });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists many streams whole and in order, letting the event loop turn between pages', async () => {
    const names = Array.from({ length: 1201 }, (_, i) => `datakey-i${String(i).padStart(4, '0')}-20261129`);
    // Streams around them that the listing must not return, one of them with many events.
    await store.append(
      'datakex-busy',
      [...Array(50).keys()].map((n) => ({ id: `x${n}`, type: 'T', data: {} })),
      'any',
    );
    await store.append('datakez-1', [{ id: 'z', type: 'T', data: {} }], 'any');
    await Promise.all(names.map((name, i) => store.append(name, [{ id: `k${i}`, type: 'T', data: {} }], 'no_stream')));
    let turns = 0;
    const ticking = setInterval(() => (turns += 1), 0);
    const seen: string[] = [];
    try {
      for await (const name of store.streamNames('datakey-')) seen.push(name);
    } finally {
      clearInterval(ticking);
    }
    expect(seen).toEqual(names);
    // Three pages of at most 500 names: a timer set before the listing ran between them.
    expect(turns).toBeGreaterThan(0);
  });

  it('steps from one name to the next through the index of stream names alone', () => {
    const db = store['db'];
    for (const sql of [
      'SELECT stream FROM events WHERE stream >= ? ORDER BY stream LIMIT 1',
      'SELECT stream FROM events WHERE stream > ? ORDER BY stream LIMIT 1',
    ]) {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('a') as Array<{ detail: string }>).map((r) => r.detail);
      expect(plan).toEqual([
        expect.stringMatching(/^SEARCH events USING COVERING INDEX sqlite_autoindex_events_2 \(stream>\?\)$/),
      ]);
    }
    // The statements the store uses are these.
    const statements = store['statements'];
    expect(statements.streamFrom.source).toBe('SELECT stream FROM events WHERE stream >= ? ORDER BY stream LIMIT 1');
    expect(statements.streamAfter.source).toBe('SELECT stream FROM events WHERE stream > ? ORDER BY stream LIMIT 1');
  });
});
