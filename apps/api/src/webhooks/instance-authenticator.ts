import { Injectable } from '@nestjs/common';
import { Codes, Refusal } from '@gw/contract';
import { secretMatches, type CommandScope } from '@gw/application';
import type { InstanceState } from '@gw/domain-instances';
import { RateLimits } from '../rate-limits/rate-limits';

/**
 * Stage 2 for instance operations: the token must match the instance's; failures never say which,
 * and an unknown instance costs the same hash and comparison as a wrong token. A request that
 * authenticated spends its instance's rate-limit budget.
 */
@Injectable()
export class InstanceAuthenticator {
  constructor(private readonly limits: RateLimits) {}

  /** Refuses with 0006 unless `token` matches `tokenHash` (or with 0010 when over budget). */
  authenticate(instanceId: string, token: string, tokenHash: string | undefined): void {
    this.check(token, tokenHash);
    this.limits.spendInstance(instanceId);
  }

  /**
   * The stage-2 check of one request's command, run on each state it decides on (the runner decides
   * again after a concurrent change): the token is checked every time, the budget spent once.
   */
  authenticateCommand(instanceId: string, token: string, state: InstanceState, { once }: CommandScope): void {
    this.check(token, state.status === 'created' ? state.tokenHash : undefined);
    once('instance budget', () => this.limits.spendInstance(instanceId));
  }

  private check(token: string, tokenHash: string | undefined): void {
    if (!secretMatches(token, tokenHash)) {
      throw new Refusal([{ code: Codes.InstanceAuthFailed, message: 'unknown instanceid or wrong token' }], 'request');
    }
  }
}
