// `@gw/event-store/esdb`: the EventStoreDB adapter. Importing it loads the client and its gRPC stack.
export * from './esdb-event-store';
