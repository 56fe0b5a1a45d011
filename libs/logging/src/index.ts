export * from './logger';
export * from './redact';
export * from './line-writers';
