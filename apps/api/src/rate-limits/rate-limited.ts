import { Codes, type Violation } from '@gw/contract';

/** A request over its rate limit (0010); answered with `Retry-After: retryAfterSeconds`. */
export class RateLimited extends Error {
  readonly violations: readonly Violation[];

  constructor(readonly retryAfterSeconds: number) {
    super(`too many requests; retry after ${retryAfterSeconds} s`);
    this.name = 'RateLimited';
    this.violations = [{ code: Codes.TooManyRequests, message: this.message }];
  }
}
