export * from './app-process';
export * from './http';
export * from './recorded-http';
export * from './shifted-clock';
export * from './expired-instance';
export * from './webhook-receiver';
export * from './fake-clock';
export * from './json-schema-check';
