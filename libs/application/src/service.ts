// `@gw/application` inside this repository (tsconfig.base.json): everything the service's own apps
// and tools use. Other apps install the package, whose entry is index.ts, the part meant for them.
export * from './command-handler';
export * from './streams';
export * from './register-account';
export * from './reset-api-key';
export * from './accounts/account-identity';
export * from './accounts/erase-account';
export * from './secrets';
export * from './secret-box';
export * from './receiver-headers';
export * from './record-inbound';
export * from './ids';
export * from './sha256';
export * from './event-schema';
export * from './personal-data';
export * from './accounts/decoy-account';
export * from './aggregate';
