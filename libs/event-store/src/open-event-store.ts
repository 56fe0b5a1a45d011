import type { EventStore } from './event-store.port';
import { SqliteEventStore } from './sqlite/sqlite-event-store';

export type EventStoreLocation = { kind: 'embedded'; file: string } | { kind: 'esdb'; connectionString: string };

/** Opens the configured store; every app (API, notifier, operator CLI) goes through here. */
export function openEventStore(location: EventStoreLocation, options: { lockTimeoutMs?: number } = {}): EventStore {
  switch (location.kind) {
    case 'embedded':
      return new SqliteEventStore({ file: location.file, lockTimeoutMs: options.lockTimeoutMs });
    case 'esdb':
      throw new Error('the EventStoreDB adapter is not part of this version');
  }
}
