import { Codes } from './error-codes';
import type { Violation } from './violation';

/**
 * Where a request was refused, which decides what the refusal costs its sender: `request`, its form
 * or its credentials, before the domain is asked (on the public hosts it spends the sender's budget
 * of failed requests, docs/api.md section 2); `domain`, the domain's rules given the current state;
 * `rate-limit`, a budget spent (0010, answered with `Retry-After`).
 */
export type RefusalKind = 'request' | 'domain' | 'rate-limit';

/** A request refused with every contract-coded reason found; answered with the failure envelope. */
export class Refusal extends Error {
  constructor(
    readonly violations: readonly Violation[],
    readonly kind: RefusalKind = 'domain',
    /** The seconds the answer's `Retry-After` names (a rate limit only). */
    readonly retryAfterSeconds?: number,
  ) {
    super(violations.map((v) => `${v.code}: ${v.message}`).join('; '));
    this.name = 'Refusal';
  }

  /** A request over a rate limit (0010), to be retried after `retryAfterSeconds`. */
  static rateLimited(retryAfterSeconds: number): Refusal {
    return new Refusal(
      [{ code: Codes.TooManyRequests, message: `too many requests; retry after ${retryAfterSeconds} s` }],
      'rate-limit',
      retryAfterSeconds,
    );
  }
}
