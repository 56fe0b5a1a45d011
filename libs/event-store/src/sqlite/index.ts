// `@gw/event-store/sqlite`: the embedded adapter, and the SQLite file handling the read models share.
export * from './sqlite-event-store';
export * from './sqlite-event-store-options';
export * from './private-files';
export { startWalCheckpointer, type WalCheckpointer } from './wal-checkpointer';
