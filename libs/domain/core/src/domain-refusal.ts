import type { Violation } from '@gw/contract';

/** A command the domain refuses, with every contract-coded reason found. */
export class DomainRefusal extends Error {
  constructor(readonly violations: readonly Violation[]) {
    super(violations.map((v) => `${v.code}: ${v.message}`).join('; '));
    this.name = 'DomainRefusal';
  }
}

/** Throws a DomainRefusal when any violation was collected. */
export function refuseIfAny(violations: readonly Violation[]): void {
  if (violations.length > 0) throw new DomainRefusal(violations);
}

/** Exhaustiveness guard for switches over discriminated unions. */
export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}

/** Throws a DomainRefusal for the given violations. */
export function refuse(...violations: Violation[]): never {
  throw new DomainRefusal(violations);
}
