import { deciderSpec } from '@gw/domain-core/testing';
import { fold } from '@gw/domain-core';
import {
  AccountAlreadyExists,
  accountDecider,
  AccountHasActiveInstances,
  AccountWasErased,
  NoSuchAccount,
} from './account.decider';
import type { AccountErased, AccountRegistered } from './account.events';

const spec = deciderSpec(accountDecider);
const now = '2026-01-01T00:00:00.000Z';
const later = '2026-02-01T00:00:00.000Z';
const registered: AccountRegistered = {
  type: 'AccountRegistered',
  data: { accountId: 'a1', email: 'v1.sealed', apiKeyHash: 'h1', registeredAt: now },
};
const erased: AccountErased = { type: 'AccountErased', data: { accountId: 'a1', erasedAt: later } };

describe('account decider', () => {
  it('registers a new account under its id, with the address as the caller sealed it', () => {
    spec
      .given([])
      .when({ type: 'RegisterAccount', data: { accountId: 'a1', email: 'v1.sealed', apiKeyHash: 'h1', now } })
      .then([registered]);
  });

  it('refuses to register an account twice', () => {
    spec
      .given([registered])
      .when({ type: 'RegisterAccount', data: { accountId: 'a1', email: 'v1.other', apiKeyHash: 'h2', now } })
      .thenThrows(AccountAlreadyExists);
  });

  it('refuses to register the address of an erased account again', () => {
    spec
      .given([registered, erased])
      .when({ type: 'RegisterAccount', data: { accountId: 'a1', email: 'v1.other', apiKeyHash: 'h2', now } })
      .thenThrows(AccountWasErased);
  });

  it('replaces the API key of a registered account (8.3): the new hash is the one checked from now', () => {
    const reset = { type: 'ApiKeyReset' as const, data: { accountId: 'a1', apiKeyHash: 'h2', resetAt: now } };
    spec
      .given([registered])
      .when({ type: 'ResetApiKey', data: { apiKeyHash: 'h2', now } })
      .then([reset]);
    expect(fold(accountDecider, [registered, reset])).toMatchObject({ status: 'registered', apiKeyHash: 'h2' });
  });

  it('refuses to reset the key of an address with no account, or of an erased one', () => {
    spec
      .given([])
      .when({ type: 'ResetApiKey', data: { apiKeyHash: 'h2', now } })
      .thenThrows(NoSuchAccount);
    spec
      .given([registered, erased])
      .when({ type: 'ResetApiKey', data: { apiKeyHash: 'h2', now } })
      .thenThrows(NoSuchAccount);
  });

  it('erases an account without active instances; afterwards it has no key hash to sign in with', () => {
    spec
      .given([registered])
      .when({ type: 'EraseAccount', data: { activeInstances: 0, now: later } })
      .then([erased]);
    expect(fold(accountDecider, [registered, erased])).toEqual({ status: 'erased', accountId: 'a1', erasedAt: later });
  });

  it('refuses to erase an account with an active instance, a missing one, or one erased already', () => {
    spec
      .given([registered])
      .when({ type: 'EraseAccount', data: { activeInstances: 1, now: later } })
      .thenThrows(AccountHasActiveInstances);
    spec
      .given([])
      .when({ type: 'EraseAccount', data: { activeInstances: 0, now: later } })
      .thenThrows(NoSuchAccount);
    spec
      .given([registered, erased])
      .when({ type: 'EraseAccount', data: { activeInstances: 0, now: later } })
      .thenThrows(NoSuchAccount);
  });
});
