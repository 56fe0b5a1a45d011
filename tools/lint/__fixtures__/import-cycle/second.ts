import type { first } from './first';

/** Only a type comes back from ./first: a cycle through types is a cycle all the same. */
export const second = (): string => 'second';
export type First = typeof first;
