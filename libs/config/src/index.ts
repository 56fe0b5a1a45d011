export * from './config';
export * from './sections';
/** The environment a configuration is read from (`process.env` by default). */
export type { Env } from './env-reader';
export * from './load-config-or-exit';
export * from './store-environment';
