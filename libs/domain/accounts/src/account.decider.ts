import { assertNever, type Decider } from '@gw/domain-core';
import type { AccountEvent } from './account.events';

/** The domain knows an account by its id only; its e-mail address is the caller's business. */
export type AccountState =
  | { status: 'none' }
  | { status: 'registered'; accountId: string; apiKeyHash: string; registeredAt: string }
  | { status: 'erased'; accountId: string; erasedAt: string };

/** `email` is the address already sealed by the caller: an opaque value to the domain. */
export type RegisterAccount = {
  type: 'RegisterAccount';
  data: { accountId: string; email: string; apiKeyHash: string; now: string };
};

/** Replaces the API key (docs/api.md 8.3); `apiKeyHash` is the new key's. */
export type ResetApiKey = {
  type: 'ResetApiKey';
  data: { apiKeyHash: string; now: string };
};

/** Erases the account (docs/api.md 9). `activeInstances` is how many of its instances are neither
 * deleted nor expired, counted by the caller from the log. */
export type EraseAccount = {
  type: 'EraseAccount';
  data: { activeInstances: number; now: string };
};

/** What an account holder's stream is asked to do. */
export type AccountCommand = RegisterAccount | ResetApiKey | EraseAccount;

/** Raised when an operator names an address that has no account (or an erased one's). The caller
 * names the address: the domain does not know it. */
export class NoSuchAccount extends Error {
  constructor() {
    super('no such account');
    this.name = 'NoSuchAccount';
  }
}

/** Raised when an operator registers an e-mail address that already has an account. */
export class AccountAlreadyExists extends Error {
  constructor() {
    super('an account for this address already exists');
    this.name = 'AccountAlreadyExists';
  }
}

/** Raised when an operator registers an address whose account was erased: an erased account's id
 * stays taken, so that its history cannot be mixed with a new holder's. */
export class AccountWasErased extends Error {
  constructor() {
    super('the account of this address was erased; the address cannot be registered again');
    this.name = 'AccountWasErased';
  }
}

/** Raised when an operator erases an account that still has active instances. */
export class AccountHasActiveInstances extends Error {
  constructor(readonly activeInstances: number) {
    super(`the account has ${activeInstances} active instance(s); delete them or let them expire first`);
    this.name = 'AccountHasActiveInstances';
  }
}

/** Why an account with this state cannot be registered, or undefined when it can: the caller asks
 * before it makes the account's data key. */
export function registrationRefusal(state: AccountState): Error | undefined {
  switch (state.status) {
    case 'none':
      return undefined;
    case 'registered':
      return new AccountAlreadyExists();
    case 'erased':
      return new AccountWasErased();
    default:
      return assertNever(state);
  }
}

/** The account's decider: registration, API key resets and erasure. */
export const accountDecider: Decider<AccountCommand, AccountEvent, AccountState> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'RegisterAccount': {
        const refusal = registrationRefusal(state);
        if (refusal) throw refusal;
        const { accountId, email, apiKeyHash, now } = command.data;
        return [{ type: 'AccountRegistered', data: { accountId, email, apiKeyHash, registeredAt: now } }];
      }
      case 'ResetApiKey':
        // The API authenticates the old key first; an operator may name an address with no account.
        if (state.status !== 'registered') throw new NoSuchAccount();
        return [
          {
            type: 'ApiKeyReset',
            data: { accountId: state.accountId, apiKeyHash: command.data.apiKeyHash, resetAt: command.data.now },
          },
        ];
      case 'EraseAccount':
        if (state.status !== 'registered') throw new NoSuchAccount();
        if (command.data.activeInstances > 0) throw new AccountHasActiveInstances(command.data.activeInstances);
        return [{ type: 'AccountErased', data: { accountId: state.accountId, erasedAt: command.data.now } }];
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'AccountRegistered':
        return {
          status: 'registered',
          accountId: event.data.accountId,
          apiKeyHash: event.data.apiKeyHash,
          registeredAt: event.data.registeredAt,
        };
      case 'ApiKeyReset':
        return state.status === 'registered' ? { ...state, apiKeyHash: event.data.apiKeyHash } : state;
      case 'AccountErased':
        return { status: 'erased', accountId: event.data.accountId, erasedAt: event.data.erasedAt };
      default:
        return assertNever(event);
    }
  },
};
