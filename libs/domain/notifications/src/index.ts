export * from './notification.events';
export * from './notifications.state';
export * from './notifications.decider';
export * from './notification-batches';
export * from './notifier.workflow';
