import { Inject, Injectable } from '@nestjs/common';
import { Codes } from '@gw/contract';
import { fold } from '@gw/domain-core';
import { accountDecider, accountStreamName, normalizeEmail, type AccountEvent } from '@gw/domain-accounts';
import type { EventStore } from '@gw/event-store';
import { RequestRefused } from '../http/contract-error';
import { secretMatches } from '@gw/application';
import { EVENT_STORE } from '../shared/tokens';

/** Stage 2 for the account host: the e-mail and API key must match; failures never say which. */
@Injectable()
export class AccountAuthenticator {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  /** Returns the account's canonical e-mail address, or refuses with 0003. */
  async authenticate(email: string, apiKey: string): Promise<string> {
    const history = await this.store.readStream(accountStreamName(email));
    const state = fold(accountDecider, history.map((e) => ({ type: e.type, data: e.data }) as AccountEvent));
    if (state.status !== 'registered' || !secretMatches(apiKey, state.apiKeyHash)) {
      throw new RequestRefused([{ code: Codes.AccountAuthFailed, message: 'unknown e-mail or wrong API key' }]);
    }
    return normalizeEmail(email);
  }
}
