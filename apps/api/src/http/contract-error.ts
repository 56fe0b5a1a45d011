import type { Violation } from '@gw/contract';

/** A request refused before or outside the domain (parameters, authentication), with its codes. */
export class RequestRefused extends Error {
  constructor(readonly violations: readonly Violation[]) {
    super(violations.map((v) => `${v.code}: ${v.message}`).join('; '));
    this.name = 'RequestRefused';
  }
}

/** A command kept meeting a concurrent change after every internal retry (code 0012). */
export class ConflictRetriesExhausted extends Error {
  constructor(readonly streamName: string, readonly attempts: number) {
    super(`stream ${streamName} kept changing during ${attempts} attempts`);
    this.name = 'ConflictRetriesExhausted';
  }
}
