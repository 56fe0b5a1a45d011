import { deciderSpec } from '@gw/domain-core/testing';
import { AccountAlreadyExists, accountDecider, NoSuchAccount } from './account.decider';
import { fold } from '@gw/domain-core';

const spec = deciderSpec(accountDecider);
const now = '2026-01-01T00:00:00.000Z';

describe('account decider', () => {
  it('registers a new account under its lowercased e-mail address', () => {
    spec
      .given([])
      .when({ type: 'RegisterAccount', data: { email: ' Ann@Example.COM ', apiKeyHash: 'h1', now } })
      .then([
        { type: 'AccountRegistered', data: { email: 'ann@example.com', apiKeyHash: 'h1', registeredAt: now } },
      ]);
  });

  it('refuses to register an e-mail address twice', () => {
    spec
      .given([{ type: 'AccountRegistered', data: { email: 'ann@example.com', apiKeyHash: 'h1', registeredAt: now } }])
      .when({ type: 'RegisterAccount', data: { email: 'ANN@example.com', apiKeyHash: 'h2', now } })
      .thenThrows(AccountAlreadyExists);
  });

  it('replaces the API key of a registered account (8.3): the new hash is the one checked from now', () => {
    const registered = { type: 'AccountRegistered' as const, data: { email: 'ann@example.com', apiKeyHash: 'h1', registeredAt: now } };
    const reset = { type: 'ApiKeyReset' as const, data: { email: 'ann@example.com', apiKeyHash: 'h2', resetAt: now } };
    spec.given([registered]).when({ type: 'ResetApiKey', data: { email: 'ann@example.com', apiKeyHash: 'h2', now } }).then([reset]);
    expect(fold(accountDecider, [registered, reset])).toMatchObject({ status: 'registered', apiKeyHash: 'h2' });
  });

  it('refuses to reset the key of an address with no account', () => {
    spec.given([]).when({ type: 'ResetApiKey', data: { email: 'nobody@example.com', apiKeyHash: 'h2', now } }).thenThrows(NoSuchAccount);
  });
});
