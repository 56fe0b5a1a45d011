// `@gw/event-store`: the port, and all that a user of it needs. Adapters have entry points of their
// own (`/sqlite`, `/esdb`, `/memory`), and `/open` picks one from configuration.
export * from './event-store.port';
export * from './event-store.errors';
export * from './expected-revision';
export * from './event-filter';
export * from './event-store-location';
export * from './event-chain';
