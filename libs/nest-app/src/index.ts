// NestJS glue shared by the apps: the configuration's sections as providers, and Nest's logging.
export * from './config.module';
export * from './nest-logger';
