import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEsdbTestServer, type EsdbTestServer } from '@gw/esdb-test-server';
import type { EventStore } from '@gw/event-store';
import { EsdbEventStore } from '@gw/event-store/esdb';
import { SqliteEventStore } from '@gw/event-store/sqlite';

export interface RealStore {
  /** The store as it stores events (no versioning). */
  readonly raw: EventStore;
  stop(): Promise<void>;
}

/** The stores the event-schema specs run on: the embedded one, and EventStoreDB through the in-repo
 * protocol test server. `describe.each(REAL_STORES)('on %s', (_name, open) => …)`. */
export const REAL_STORES: ReadonlyArray<readonly [string, () => Promise<RealStore>]> = [
  [
    'the embedded store',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'gw-event-schema-'));
      const raw = new SqliteEventStore({ file: join(dir, 'events.sqlite') });
      return {
        raw,
        async stop() {
          await raw.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  ],
  [
    'EventStoreDB (the in-repo protocol test server)',
    async () => {
      const server: EsdbTestServer = await startEsdbTestServer({ port: 0 });
      const raw = new EsdbEventStore({ connectionString: server.connectionString });
      return {
        raw,
        async stop() {
          await raw.close();
          await server.stop();
        },
      };
    },
  ],
];
