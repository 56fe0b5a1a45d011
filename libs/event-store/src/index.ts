export * from './event-store.port';
export * from './event-store.errors';
export * from './sqlite/sqlite-event-store';
export * from './sqlite/private-files';
export * from './esdb/esdb-event-store';
export * from './event-filter';
export * from './open-event-store';
