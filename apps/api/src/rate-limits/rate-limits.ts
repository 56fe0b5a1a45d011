import { Injectable } from '@nestjs/common';
import { Refusal } from '@gw/contract';
import type { RateLimitsConfig } from '@gw/config';
import { InjectConfig } from '@gw/nest-app';
import { sourceKey } from '@gw/net-policy';
import { TokenBuckets } from './token-buckets';

/**
 * Which failure budget of a source a host spends and obeys: the public hosts (account and instance)
 * share one, the ingest host has its own, so that what the public sends from an address never locks
 * the gateway on that address out of the ingest host (docs/api.md section 2).
 */
export type FailureScope = 'public' | 'ingest';

/**
 * The API's rate limits (code 0010, docs/api.md section 2). An account's or an instance's budget is
 * spent only by requests that authenticated as it, so nobody can lock out an account without its
 * credentials; requests that fail the form checks or authentication spend their source address's
 * budget instead, and a source past that budget is refused everything of that scope until it
 * refills. Keys are only ever values that passed the form rules, and each set of buckets is bounded
 * in bytes.
 */
@Injectable()
export class RateLimits {
  private readonly accounts: TokenBuckets;
  private readonly instances: TokenBuckets;
  private readonly failures: Record<FailureScope, TokenBuckets>;

  constructor(@InjectConfig('rateLimits') rateLimits: RateLimitsConfig) {
    this.accounts = new TokenBuckets(rateLimits.accountPerMinute);
    this.instances = new TokenBuckets(rateLimits.instancePerMinute);
    this.failures = {
      public: new TokenBuckets(rateLimits.authFailuresPerMinute),
      ingest: new TokenBuckets(rateLimits.authFailuresPerMinute),
    };
  }

  /** Seconds a source must wait on the hosts of `scope` because of its failed requests there (0: it
   * may go on). Spends nothing. */
  sourceWait(scope: FailureScope, address: string): number {
    return this.failures[scope].wait(sourceKey(address));
  }

  /** A request from `address` failed the form checks or authentication on a public host, or sent a
   * wrong bearer token to the ingest host. */
  failed(scope: FailureScope, address: string): void {
    this.failures[scope].take(sourceKey(address));
  }

  /** Spends from the budget of the account that just authenticated; throws a rate-limit Refusal when spent. */
  spendAccount(accountId: string): void {
    throwIfWaiting(this.accounts.take(accountId));
  }

  /** Spends from the budget of the instance that just authenticated; throws a rate-limit Refusal when spent. */
  spendInstance(instanceId: string): void {
    throwIfWaiting(this.instances.take(instanceId));
  }

  /** What each set of buckets holds now, for /metrics. */
  usage(): Record<'account' | 'instance' | 'source' | 'ingest_source', { keys: number; bytes: number }> {
    return {
      account: this.accounts.usage,
      instance: this.instances.usage,
      source: this.failures.public.usage,
      ingest_source: this.failures.ingest.usage,
    };
  }
}

function throwIfWaiting(seconds: number): void {
  if (seconds > 0) throw Refusal.rateLimited(seconds);
}
