export * from './error-codes';
export * from './refusal';
export * from './violation';
