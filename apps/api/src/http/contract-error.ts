import type { Violation } from '@gw/contract';

/** A request refused before or outside the domain (parameters, authentication), with its codes. */
export class RequestRefused extends Error {
  constructor(readonly violations: readonly Violation[]) {
    super(violations.map((v) => `${v.code}: ${v.message}`).join('; '));
    this.name = 'RequestRefused';
  }
}

/** A client went over a rate limit (code 0010); it may retry after `retryAfterSeconds`. */
export class TooManyRequests extends RequestRefused {
  constructor(readonly retryAfterSeconds: number) {
    super([{ code: '0010', message: `too many requests; retry after ${retryAfterSeconds} s` }]);
    this.name = 'TooManyRequests';
  }
}
