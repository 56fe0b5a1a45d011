export * from './listener';
export * from './routing';
export * from './send-json';
