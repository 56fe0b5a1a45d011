export * from './lifecycle';
export * from './retry-delay';
