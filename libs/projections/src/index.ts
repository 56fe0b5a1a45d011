export * from './read-model.types';
export * from './instances.projection';
export * from './projection-runner';
export * from './sqlite/sqlite-read-models';
