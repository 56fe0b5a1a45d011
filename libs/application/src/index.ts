export * from './command-handling';
export * from './register-account';
export * from './secrets';
