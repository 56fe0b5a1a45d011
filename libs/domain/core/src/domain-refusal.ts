import { Refusal, type Violation } from '@gw/contract';

/** Throws a domain Refusal when any violation was collected. */
export function refuseIfAny(violations: readonly Violation[]): void {
  if (violations.length > 0) throw new Refusal(violations);
}

/** Exhaustiveness guard for switches over discriminated unions. */
export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}

/** Throws a domain Refusal for the given violations. */
export function refuse(...violations: Violation[]): never {
  throw new Refusal(violations);
}
