export * from './instance.events';
export * from './instance.state';
export * from './instance.commands';
export * from './instance.decider';
export * from './package-catalogue';
export * from './notification-kinds';
export * from './receiver-options';
export { needsNewSigningKey, needsNewSigningSecret, rotatesKeyPair } from './instance-webhook.decide';
export * from './connection-state';
