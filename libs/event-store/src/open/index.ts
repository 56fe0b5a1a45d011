// `@gw/event-store/open`: picks the adapter that configuration names. Only a process's composition
// root (an app's main.ts, a tool) imports it.
export * from './open-event-store';
