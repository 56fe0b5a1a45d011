import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEsdbTestServer, type EsdbTestServer } from '@gw/esdb-test-server';
import type { EventStore } from '@gw/event-store';
import { EsdbEventStore } from '@gw/event-store/esdb';
import { SqliteEventStore } from '@gw/event-store/sqlite';

/** A real store for a spec, and how to open a second client on it (another process's view). */
export interface StoreUnderTest {
  store: EventStore;
  openAnother(): EventStore;
  close(): Promise<void>;
}

/** The stores the personal-data specs run on: `describe.each(STORES)('… on %s', (_name, open) => …)`. */
export const STORES: ReadonlyArray<readonly [string, () => Promise<StoreUnderTest>]> = [
  ['the embedded store', openSqlite],
  ['EventStoreDB (the in-repo protocol test server)', openEsdb],
];

async function openSqlite(): Promise<StoreUnderTest> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-personal-'));
  const file = join(dir, 'events.sqlite');
  const opened: EventStore[] = [new SqliteEventStore({ file })];
  return {
    store: opened[0],
    openAnother: () => {
      const another = new SqliteEventStore({ file });
      opened.push(another);
      return another;
    },
    async close() {
      for (const store of opened) await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function openEsdb(): Promise<StoreUnderTest> {
  const server: EsdbTestServer = await startEsdbTestServer({ port: 0 });
  const opened: EventStore[] = [new EsdbEventStore({ connectionString: server.connectionString })];
  return {
    store: opened[0],
    openAnother: () => {
      const another = new EsdbEventStore({ connectionString: server.connectionString });
      opened.push(another);
      return another;
    },
    async close() {
      for (const store of opened) await store.close();
      await server.stop();
    },
  };
}
