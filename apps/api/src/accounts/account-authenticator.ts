import { Inject, Injectable } from '@nestjs/common';
import { Codes } from '@gw/contract';
import { accountStreamName, type AccountState } from '@gw/domain-accounts';
import type { EventStore } from '@gw/event-store';
import { AccountIdentity, accountStream, decoyAccountState, readState, secretMatches } from '@gw/application';
import { RequestRefused } from '../http/contract-error';
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

  /** The stream of the account an address names (whether or not it exists). */
  streamOf(email: string): string {
    return accountStreamName(this.identity.accountId(email));
  }

  /** Returns the account's id, or refuses with 0003 (or 0010 when over budget). */
  async authenticate(email: string, apiKey: string): Promise<string> {
    const { state } = await readState(this.store, this.streamOf(email), accountStream);
    return this.authenticateAgainst(email, apiKey, state);
  }

  /** `authenticate` against a state the caller has just loaded: a command on the account's own
   * stream checks the key on the very state it decides on. */
  authenticateAgainst(email: string, apiKey: string, state: AccountState): string {
    this.check(apiKey, state);
    const accountId = this.identity.accountId(email);
    this.limits.spendAccount(accountId);
    return accountId;
  }

  /** The check alone, for a command that decides again after a concurrent change: the request has
   * spent its budget once already. */
  check(apiKey: string, state: AccountState): void {
    // No stream for this address: fold a decoy history of the same shape and compare with its hash,
    // the work a known address costs (an erased account's stream was read and folded already).
    const compared = state.status === 'none' ? decoyAccountState() : state;
    const matches = secretMatches(apiKey, compared.status === 'registered' ? compared.apiKeyHash : undefined);
    if (state.status !== 'registered' || !matches) {
      throw new RequestRefused([{ code: Codes.AccountAuthFailed, message: 'unknown e-mail or wrong API key' }]);
    }
  }
}
