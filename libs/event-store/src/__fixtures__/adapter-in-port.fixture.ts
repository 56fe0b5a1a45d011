// Lint fixture: a file of the event-store port importing store clients and adapters, which would load
// them for every user of `@gw/event-store`. Excluded from `npm run lint`;
// tools/lint/module-boundaries.spec.ts expects lines 6-10 refused.
import { WrongExpectedRevisionError } from '../event-store.errors';
import { matchesFilter } from '../event-filter';
import Database from 'better-sqlite3';
import { EventStoreDBClient } from '@eventstore/db-client';
import { SqliteEventStore } from '../sqlite/sqlite-event-store';
import { MemoryEventStore } from '../memory';
import { openEventStore } from '../open/open-event-store';

export const port = [WrongExpectedRevisionError, matchesFilter, Database, EventStoreDBClient, SqliteEventStore, MemoryEventStore, openEventStore];
