import type { EsdbEventStore } from '../esdb/esdb-event-store';
import type { EventStoreLocation } from '../event-store-location';
import type { EventStore } from '../event-store.port';
import { SqliteEventStore } from '../sqlite/sqlite-event-store';

/** Opens the configured store; every app (API, notifier, operator CLI) goes through here. */
export function openEventStore(
  location: EventStoreLocation,
  options: {
    lockTimeoutMs?: number;
    onWarning?: (message: string, fields: Record<string, unknown>) => void;
    /** The embedded store's group commits, for metrics (SqliteEventStoreOptions); EventStoreDB has none. */
    onGroupCommitted?: (appends: number, events: number, seconds: number) => void;
    /** The embedded store's least time between group commits while another process writes
     * (SqliteEventStoreOptions.groupIntervalMs); EventStoreDB has no group commits. */
    groupIntervalMs?: number;
  } = {},
): EventStore {
  switch (location.kind) {
    case 'embedded':
      return new SqliteEventStore({
        file: location.file,
        lockTimeoutMs: options.lockTimeoutMs,
        onWarning: options.onWarning,
        onGroupCommitted: options.onGroupCommitted,
        groupIntervalMs: options.groupIntervalMs,
      });
    case 'esdb': {
      // Loaded only when chosen: the EventStoreDB client and its gRPC stack take about 150 ms to load,
      // which every process on the embedded store (and every operator command) would pay at start.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { EsdbEventStore: Adapter } = require('../esdb/esdb-event-store') as {
        EsdbEventStore: typeof EsdbEventStore;
      };
      return new Adapter({ connectionString: location.connectionString, onWarning: options.onWarning });
    }
  }
}
