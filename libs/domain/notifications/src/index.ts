export * from './notification.events';
export * from './notifications.state';
export * from './notifications.decider';
export * from './notification-batches';
export * from './notifier.workflow';
export * from './notification-history';
export * from './instance-notices';
export * from './notifier.records';
