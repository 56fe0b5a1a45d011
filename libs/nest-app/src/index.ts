// NestJS glue shared by the apps: the configuration's sections as providers, Nest's logging, and the
// webhook sender as a provider.
export * from './config.module';
export * from './nest-logger';
export * from './webhook-sender.provider';
