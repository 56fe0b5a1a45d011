import { EsdbEventStore } from './esdb/esdb-event-store';
import type { EventStore } from './event-store.port';
import { SqliteEventStore } from './sqlite/sqlite-event-store';

export type EventStoreLocation = { kind: 'embedded'; file: string } | { kind: 'esdb'; connectionString: string };

/** Opens the configured store; every app (API, notifier, operator CLI) goes through here. */
export function openEventStore(
  location: EventStoreLocation,
  options: { lockTimeoutMs?: number; onWarning?: (message: string, fields: Record<string, unknown>) => void } = {},
): EventStore {
  switch (location.kind) {
    case 'embedded':
      return new SqliteEventStore({ file: location.file, lockTimeoutMs: options.lockTimeoutMs, onWarning: options.onWarning });
    case 'esdb':
      return new EsdbEventStore({ connectionString: location.connectionString, onWarning: options.onWarning });
  }
}
