// A module that imports a module that imports it back: the cycle check must refuse it.
import { second } from './second';

export const first = (): string => `first, then ${second()}`;
