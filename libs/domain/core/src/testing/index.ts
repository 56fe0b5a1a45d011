export * from './decider-specification';
export * from './workflow-specification';
