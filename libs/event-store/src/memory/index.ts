// `@gw/event-store/memory`: the in-memory adapter, for tests that need no file.
export * from './memory-event-store';
