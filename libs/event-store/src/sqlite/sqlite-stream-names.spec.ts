import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from './sqlite-event-store';
import { listStreamNames } from './sqlite-stream-names';

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

  it('lists many streams whole and in order, in pages with a turn of the event loop between them', async () => {
    const names = Array.from({ length: 1201 }, (_, i) => `datakey-i${String(i).padStart(4, '0')}-20261129`);
    // Streams around them that the listing must not return, one of them with many events.
    await store.append(
      'datakex-busy',
      [...Array(50).keys()].map((n) => ({ id: `x${n}`, type: 'T', data: {} })),
      'any',
    );
    await store.append('datakez-1', [{ id: 'z', type: 'T', data: {} }], 'any');
    await Promise.all(names.map((name, i) => store.append(name, [{ id: `k${i}`, type: 'T', data: {} }], 'no_stream')));
    // The store's own listing: whole and in order.
    const seen: string[] = [];
    for await (const name of store.streamNames('datakey-')) seen.push(name);
    expect(seen).toEqual(names);
    // The same walk, its pages counted: 500 names a page, and a turn of the event loop between
    // pages (a callback queued before the walk runs before it ends; without the turn, every page
    // would follow in microtasks and it would run after).
    const pages: number[] = [];
    let turned = false;
    setImmediate(() => (turned = true));
    const counted: string[] = [];
    const run = async (read: () => string[]) => {
      const page = read();
      pages.push(page.length);
      return page;
    };
    for await (const name of listStreamNames(store['statements'], 'datakey-', run)) {
      if (pages.length === 1 && counted.length === 0) expect(turned).toBe(false);
      counted.push(name);
    }
    expect(counted).toEqual(names);
    expect(pages).toEqual([500, 500, 201]);
    expect(turned).toBe(true);
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
