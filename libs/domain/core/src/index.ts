export * from './decider';
export * from './domain-refusal';
export * from './time';
