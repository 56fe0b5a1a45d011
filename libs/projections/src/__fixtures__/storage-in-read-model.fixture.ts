// Lint fixture: a read model (outside sqlite/) reaching for storage instead of staying behind its query
// interface. Excluded from `npm run lint`; tools/lint/module-boundaries.spec.ts expects lines 5-6 refused.
import type { RecordedEvent } from '@gw/event-store';
import type { InstancesQuery } from '../instances.read-model';
import Database from 'better-sqlite3';
import { preparePrivateDatabaseFile } from '@gw/event-store/sqlite';

export const storage = [Database, preparePrivateDatabaseFile];
export type Read = [RecordedEvent, InstancesQuery];
