export * from './command-handler';
export * from './streams';
export * from './register-account';
export * from './reset-api-key';
export * from './secrets';
export * from './secret-box';
export * from './record-inbound';
export * from './ids';
