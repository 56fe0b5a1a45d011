// Lint fixture: an app file other than main.ts choosing an event-store adapter instead of taking the
// port. Excluded from `npm run lint`; tools/lint/module-boundaries.spec.ts expects lines 6-9 refused.
import type { EventStore } from '@gw/event-store';
import { EventStoreUnavailableError } from '@gw/event-store';
import type { EventStoreContractHarness } from '@gw/event-store/testing';
import { SqliteEventStore } from '@gw/event-store/sqlite';
import { EsdbEventStore } from '@gw/event-store/esdb';
import { MemoryEventStore } from '@gw/event-store/memory';
import { openEventStore } from '@gw/event-store/open';

export const adapters = [SqliteEventStore, EsdbEventStore, MemoryEventStore, openEventStore, EventStoreUnavailableError];
export type Port = [EventStore, EventStoreContractHarness];
