export * from './config';
export * from './app-entry';
