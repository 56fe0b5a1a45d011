export * from './listener';
export * from './routing';
export * from './routing-answers';
export * from './send-json';
