// Lint fixture: an app reaching a store client directly instead of through the event-store port.
// Excluded from `npm run lint`; tools/lint/module-boundaries.spec.ts expects it refused.
import Database from 'better-sqlite3';

export const direct = Database;
