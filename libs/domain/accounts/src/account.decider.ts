import { assertNever, type Decider } from '@gw/domain-core';
import type { AccountEvent } from './account.events';
import { normalizeEmail } from './account.events';

export type AccountState =
  | { status: 'none' }
  | { status: 'registered'; email: string; apiKeyHash: string; registeredAt: string };

export type RegisterAccount = {
  type: 'RegisterAccount';
  data: { email: string; apiKeyHash: string; now: string };
};

/** Replaces the API key (docs/api.md 8.3); `apiKeyHash` is the new key's. */
export type ResetApiKey = {
  type: 'ResetApiKey';
  data: { email: string; apiKeyHash: string; now: string };
};

export type AccountCommand = RegisterAccount | ResetApiKey;

/** Raised when an operator resets the key of an e-mail address that has no account. */
export class NoSuchAccount extends Error {
  constructor(readonly email: string) {
    super(`no account for ${email}`);
    this.name = 'NoSuchAccount';
  }
}

/** Raised when an operator registers an e-mail address that already has an account. */
export class AccountAlreadyExists extends Error {
  constructor(readonly email: string) {
    super(`an account for ${email} already exists`);
    this.name = 'AccountAlreadyExists';
  }
}

export const accountDecider: Decider<AccountCommand, AccountEvent, AccountState> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'RegisterAccount': {
        const email = normalizeEmail(command.data.email);
        if (state.status !== 'none') throw new AccountAlreadyExists(email);
        return [
          {
            type: 'AccountRegistered',
            data: { email, apiKeyHash: command.data.apiKeyHash, registeredAt: command.data.now },
          },
        ];
      }
      case 'ResetApiKey':
        // The API authenticates the old key first; an operator may name an address with no account.
        if (state.status !== 'registered') throw new NoSuchAccount(normalizeEmail(command.data.email));
        return [{ type: 'ApiKeyReset', data: { email: state.email, apiKeyHash: command.data.apiKeyHash, resetAt: command.data.now } }];
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'AccountRegistered':
        return { status: 'registered', ...event.data };
      case 'ApiKeyReset':
        return state.status === 'registered' ? { ...state, apiKeyHash: event.data.apiKeyHash } : state;
      default:
        return assertNever(event);
    }
  },
};
