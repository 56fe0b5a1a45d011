export * from './error-codes';
export * from './violation';
