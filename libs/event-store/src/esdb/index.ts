export * from './esdb-event-store';
