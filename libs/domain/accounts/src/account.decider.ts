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

export type AccountCommand = RegisterAccount;

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
      default:
        return assertNever(command.type);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'AccountRegistered':
        return { status: 'registered', ...event.data };
      default:
        return assertNever(event.type);
    }
  },
};
