export * from './event-schemas';
export * from './versioned-event-store';
