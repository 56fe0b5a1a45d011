export * from './instances.read-model';
export * from './webhook-logs.read-model';
export * from './usage.read-model';
export * from './read-models';
export * from './projection-runner';
export * from './sqlite/sqlite-read-models';
export * from './sqlite/read-model-snapshot';
