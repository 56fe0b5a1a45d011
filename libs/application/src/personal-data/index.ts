export * from './personal-data.events';
export * from './data-keys';
export * from './personal-fields';
export * from './erase';
export * from './retention';
