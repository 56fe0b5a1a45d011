export * from './event-store.port';
export * from './event-store.errors';
export * from './sqlite/sqlite-event-store';
export * from './sqlite/private-files';
export { startWalCheckpointer, type WalCheckpointer } from './sqlite/wal-checkpointer';
export * from './event-filter';
export * from './open-event-store';
export * from './memory/memory-event-store';
