import { Inject, Injectable } from '@nestjs/common';
import { Codes, Refusal } from '@gw/contract';
import { accountStreamName, type AccountState } from '@gw/domain-accounts';
import type { EventStore } from '@gw/event-store';
import {
  AccountIdentity,
  accountStream,
  decoyAccountState,
  readState,
  secretMatches,
  type CommandScope,
} from '@gw/application';
import { RateLimits } from '../rate-limits/rate-limits';
import { EVENT_STORE } from '../shared/tokens';

/**
 * Stage 2 for the account host: the e-mail and API key must match; failures never say which, and
 * an unknown e-mail, or an erased account's, costs the same work as a wrong key (one stream read,
 * a history of the same shape folded, the keyed hash, hash and comparison), so timing does not
 * tell them apart. A request that authenticated spends its account's
 * rate-limit budget. The account's stream is read on every request (no cache), so a key reset
 * (docs/api.md 8.3) or an erasure (9) counts from the next one.
 */
@Injectable()
export class AccountAuthenticator {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly limits: RateLimits,
    private readonly identity: AccountIdentity,
  ) {}

  /** The id of the account an address names (whether or not it exists). */
  accountId(email: string): string {
    return this.identity.accountId(email);
  }

  /** Returns the account's id, or refuses with 0003 (or 0010 when over budget). */
  async authenticate(email: string, apiKey: string): Promise<string> {
    const accountId = this.accountId(email);
    const { state } = await readState(this.store, accountStreamName(accountId), accountStream);
    this.check(apiKey, state);
    this.limits.spendAccount(accountId);
    return accountId;
  }

  /** `authenticate` for a command on the account's own stream, on each state it decides on: the key
   * is checked on the very state the command decides from, every time; the budget is spent once. */
  authenticateCommand(email: string, apiKey: string, state: AccountState, { once }: CommandScope): void {
    this.check(apiKey, state);
    once('account budget', () => this.limits.spendAccount(this.accountId(email)));
  }

  private check(apiKey: string, state: AccountState): void {
    // No stream for this address: fold a decoy history of the same shape and compare with its hash,
    // the work a known address costs (an erased account's stream was read and folded already).
    const compared = state.status === 'none' ? decoyAccountState() : state;
    const matches = secretMatches(apiKey, compared.status === 'registered' ? compared.apiKeyHash : undefined);
    if (state.status !== 'registered' || !matches) {
      throw new Refusal([{ code: Codes.AccountAuthFailed, message: 'unknown e-mail or wrong API key' }], 'request');
    }
  }
}
