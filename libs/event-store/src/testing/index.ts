export * from './event-store-contract';
export * from './spawn-appender';
