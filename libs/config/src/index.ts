export * from './config';
export * from './load-config-or-exit';
