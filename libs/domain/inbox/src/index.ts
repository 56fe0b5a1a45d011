export * from './inbox.events';
