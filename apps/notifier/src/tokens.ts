/** Injection tokens for values that are not classes. */
export const APP_CONFIG = Symbol('APP_CONFIG');
export const EVENT_STORE = Symbol('EVENT_STORE');
export const LOGGER = Symbol('LOGGER');
