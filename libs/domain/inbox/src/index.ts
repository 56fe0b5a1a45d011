export * from './inbox.events';
export * from './inbox.decider';
