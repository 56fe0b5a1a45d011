export * from './account.events';
export * from './account.decider';
