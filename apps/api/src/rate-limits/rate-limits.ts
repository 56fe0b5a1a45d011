import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@gw/config';
import { normalizeEmail } from '@gw/domain-accounts';
import type { HostName } from '../http/routes';
import type { RequestParams } from '../http/request-params';
import { APP_CONFIG } from '../shared/tokens';
import { TokenBuckets } from './token-buckets';

/**
 * The API's rate limits (code 0010): per account on the account host, per instance on the instance
 * host, and per source address on authentication failures, so that guessing keys or tokens is slow.
 * A source over its failure limit is refused on every authenticated operation until it cools down.
 */
@Injectable()
export class RateLimits {
  private readonly accounts: TokenBuckets;
  private readonly instances: TokenBuckets;
  private readonly authFailures: TokenBuckets;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.accounts = new TokenBuckets(config.rateLimits.accountPerMinute);
    this.instances = new TokenBuckets(config.rateLimits.instancePerMinute);
    this.authFailures = new TokenBuckets(config.rateLimits.authFailuresPerMinute);
  }

  /** Seconds the request must wait (0: it may go on). Spends from the caller's bucket. The ingest
   * host is not limited. */
  admit(host: Exclude<HostName, 'internal'>, params: RequestParams, source: string): number {
    const blocked = this.authFailures.wait(source);
    if (blocked > 0) return blocked;
    if (host === 'account') {
      const email = first(params, 'email');
      return email ? this.accounts.take(normalizeEmail(email)) : 0;
    }
    const instanceId = first(params, 'instanceid');
    return instanceId ? this.instances.take(instanceId) : 0;
  }

  authenticationFailed(source: string): void {
    this.authFailures.take(source);
  }
}

function first(params: RequestParams, name: string): string | undefined {
  const value = (params.body.get(name) ?? params.query.get(name))?.[0];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
