/** Injection tokens for values that are not classes. */
export const EVENT_STORE = Symbol('EVENT_STORE');
export const LOGGER = Symbol('LOGGER');
