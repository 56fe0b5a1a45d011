export * from './config';
export * from './sections';
export type { Env } from './env-reader';
export * from './load-config-or-exit';
export * from './store-environment';
