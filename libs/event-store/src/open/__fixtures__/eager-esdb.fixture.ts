// Lint fixture: `open` importing the EventStoreDB adapter eagerly, which would load its client in every
// process. Excluded from `npm run lint`; tools/lint/module-boundaries.spec.ts expects line 5 refused.
import type { EsdbEventStoreOptions } from '../../esdb/esdb-event-store';
import { SqliteEventStore } from '../../sqlite/sqlite-event-store';
import { EsdbEventStore } from '../../esdb/esdb-event-store';

export const eager = [SqliteEventStore, EsdbEventStore];
export type Options = EsdbEventStoreOptions;
