import type { Violation } from '@gw/contract';

/** A request refused before or outside the domain (parameters, authentication), with its codes. */
export class RequestRefused extends Error {
  constructor(readonly violations: readonly Violation[]) {
    super(violations.map((v) => `${v.code}: ${v.message}`).join('; '));
    this.name = 'RequestRefused';
  }
}

